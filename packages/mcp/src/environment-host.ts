import { createToolHost, errorResult, type Environment, type ToolHostOptions, type ToolResult } from 'toolhost';
import type { McpSessionHost } from './mcp-session-host.js';

/** Options of the tool host each MCP session gets over its environment: every toolhost option but where it runs. */
export type McpHostOptions = Omit<ToolHostOptions, 'workspace' | 'environment'>;

/** How long the check that the environment still answers may take before the original result stands. */
const PROBE_TIMEOUT_MS = 10_000;

/** Result codes that a model mistake explains, so the environment is not suspected. */
const MODEL_MISTAKES = new Set<string>([
  'invalid_arguments',
  'unknown_tool',
  'legacy_tool',
  'unknown_session',
  'session_exited',
  'outside_workspace',
  'patch_parse_error',
  'patch_context_not_found',
  'patch_ambiguous',
  'patch_target_exists',
  'verification_required',
  'permission_denied',
  'too_many_sessions',
]);

/** What the model is told the tools run in. */
function placeOf(environment: Environment): string {
  if (environment.kind === 'docker') return 'Docker container';
  if (environment.kind === 'ssh') return 'SSH host';
  if (environment.kind === 'local') return 'local folder';
  return `${environment.kind} environment`;
}

/** Why the environment no longer answers, or undefined when it does (or cannot tell in time). */
async function unreachable(environment: Environment): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const probe = environment.workspace.stat('').then(
    (stat) => (stat?.kind === 'directory' ? undefined : `the folder ${environment.workspace.root} is gone`),
    (error: unknown) => (error instanceof Error ? error.message : String(error)).trim(),
  );
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A tool host over `environment` for one MCP session. A call that fails while the environment no longer answers (a
 * stopped container, an unreachable host) tells the model so in place of the engine's error, and `recovery` what the
 * user can do.
 */
export function createEnvironmentHost(
  environment: Environment,
  options: McpHostOptions = {},
  recovery?: string,
): McpSessionHost & { readonly environment: Environment } {
  const host = createToolHost({ ...options, environment });
  // Generic so a call keeps its tool's result type: the explained failure carries the same data.
  const explain = async <Result extends ToolResult>(result: Result): Promise<Result> => {
    if (result.ok || !result.error || MODEL_MISTAKES.has(result.error.code)) return result;
    const reason = await unreachable(environment);
    if (reason === undefined) return result;
    const message = `The ${placeOf(environment)} the tools run in cannot be reached: ${reason.replace(/[.\s]+$/, '')}. This call failed, and every call will until it is back; tell the user.${recovery ? ` ${recovery}` : ''}`;
    return errorResult(result.error.code, message, result.data) as Result;
  };
  return {
    environment,
    get tools() {
      return host.tools;
    },
    nextSegment: () => host.nextSegment(),
    call: async (name, args, callOptions) => explain(await host.call(name, args, callOptions)),
    close: () => host.close(),
  };
}
