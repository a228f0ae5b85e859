import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  ToolHostError,
  checkShellEnvironmentPolicy,
  gptTokenizer,
  type Environment,
  type ShellEnvironmentPolicy,
  type Tokenizer,
} from '@toolhost/core';
import { createFileSpool } from '@toolhost/core/node';
import type { CatalogEmbedder, CatalogEntry } from '@toolhost/catalog';
import { createExecTools, createLocalEnvironment, type ExecGateway } from '@toolhost/exec';
import {
  checkProfileSettings,
  vocabularyOf,
  currentShellEnvironment,
  resolveShellProfile,
  type ShellGuidance,
  type ShellProfileSetting,
  type ToolNames,
  type ToolProfile,
  type VerificationGateOptions,
} from '@toolhost/profiles';
import {
  checkTelemetryOptions,
  createBuiltinImplementations,
  createCodeSearchEngine,
  createPatchEngine,
  createToolRuntime,
  forwardToolSurface,
  type TelemetryOptions,
  type ToolSurface,
} from '@toolhost/runtime';

/** Options of {@link createToolHost}. */
export interface ToolHostOptions {
  /** Absolute path of an existing folder on this machine; every path the tools touch stays inside it (or give `environment`). */
  workspace?: string;
  /** Where the tools run (a Docker container, an SSH host, …) in place of `workspace`; the host owns it: close() closes it. */
  environment?: Environment;
  profile?: ToolProfile;
  shellProfile?: ShellProfileSetting;
  /** Counts output tokens (default: o200k_base). */
  tokenizer?: Tokenizer;
  /** Tools that search_tools can surface. */
  catalog?: CatalogEntry[];
  /** Embeds catalog tools and queries so search_tools ranks by meaning as well as words (hybrid); each tool is embedded once. */
  catalogEmbedder?: CatalogEmbedder;
  /** Weight of the embedding ranking in hybrid ranking (default 1; see ToolCatalogOptions.embeddingWeight). */
  catalogEmbeddingWeight?: number;
  /** Decides sandbox_permissions / justification requests (default: allow use_default, deny escalation). */
  gateway?: ExecGateway;
  /** Where complete outputs are spooled (default: a per-host folder under the OS temp folder, removed by close()). */
  spoolDir?: string;
  /** Anti-blind-editing settings. */
  verification?: VerificationGateOptions;
  /** The names the model was given for exec_command and apply_patch, when you list them under other names. */
  toolNames?: ToolNames;
  /** Live output of exec sessions, chunk by chunk. */
  onOutput?: (sessionId: number, chunk: string) => void;
  /** The environment commands get (default: every variable of this process except credential-like names). */
  shellEnvironment?: ShellEnvironmentPolicy;
  /** Settings of code_search (advanced profile). */
  codeSearch?: CodeSearchOptions;
  /** What the OpenTelemetry `execute_tool` spans record (spans need `@opentelemetry/api` and a registered provider). */
  telemetry?: TelemetryOptions;
}

/** Settings of code_search on a host. */
export interface CodeSearchOptions {
  /**
   * The background symbol index of a workspace on this machine (a worker thread, started with the advanced profile):
   * definition, usage and text searches answer from it once built, earlier ones scan. `cacheDir` keeps it between
   * processes (default: `toolhost-code-search` under the OS temp folder; `false`: memory only). `cacheLimits` bounds that
   * folder each time an index is saved there: index files unused for `maxAgeMs` (default 30 days) are removed, then the
   * least recently used until the folder holds at most `maxBytes` (default 512 MiB); the index just saved always stays.
   * `watch` (default true) hears changes from the file system so a search checks only what changed; `false` stats every
   * file at each search. Default `true`; `false` never starts the worker and always scans.
   */
  index?: boolean | { cacheDir?: string | false; cacheLimits?: { maxAgeMs?: number; maxBytes?: number }; watch?: boolean };
}

function checkCodeSearchOptions(codeSearch: unknown): void {
  if (codeSearch === undefined) return;
  if (!codeSearch || typeof codeSearch !== 'object' || Array.isArray(codeSearch))
    throw new ToolHostError('invalid_options', 'codeSearch must be an object');
  const { index } = codeSearch as CodeSearchOptions;
  if (index === undefined || typeof index === 'boolean') return;
  if (!index || typeof index !== 'object' || Array.isArray(index))
    throw new ToolHostError('invalid_options', 'codeSearch.index must be true, false or { cacheDir, cacheLimits, watch }');
  const { cacheDir, cacheLimits, watch } = index;
  if (watch !== undefined && typeof watch !== 'boolean')
    throw new ToolHostError('invalid_options', `codeSearch.index.watch must be a boolean, got ${JSON.stringify(watch)}`);
  if (cacheDir !== undefined && cacheDir !== false && (typeof cacheDir !== 'string' || !isAbsolute(cacheDir))) {
    throw new ToolHostError(
      'invalid_options',
      `codeSearch.index.cacheDir must be an absolute path or false, got ${JSON.stringify(cacheDir)}`,
    );
  }
  if (cacheLimits === undefined) return;
  if (!cacheLimits || typeof cacheLimits !== 'object' || Array.isArray(cacheLimits))
    throw new ToolHostError('invalid_options', 'codeSearch.index.cacheLimits must be { maxAgeMs, maxBytes }');
  for (const key of ['maxAgeMs', 'maxBytes'] as const) {
    const value = cacheLimits[key];
    if (value !== undefined && (typeof value !== 'number' || Number.isNaN(value) || value < 0)) {
      throw new ToolHostError(
        'invalid_options',
        `codeSearch.index.cacheLimits.${key} must be a number >= 0 (Infinity: no limit), got ${String(value)}`,
      );
    }
  }
}

/** The model-facing tool surface of one workspace. */
export interface ToolHost extends ToolSurface {
  /** The resolved shell profile. */
  readonly shell: ShellGuidance;
  readonly profile: ToolProfile;
}

function checkOptions(options: ToolHostOptions): void {
  if (!options || typeof options !== 'object') throw new ToolHostError('invalid_options', 'createToolHost needs an options object');
  const { workspace, environment, profile, shellProfile } = options;
  if (environment !== undefined) {
    if (workspace !== undefined) throw new ToolHostError('invalid_options', 'give either workspace or environment, not both');
    if (!environment || typeof environment !== 'object' || !environment.workspace || !environment.processes) {
      throw new ToolHostError('invalid_options', 'environment must be an Environment (workspace, processes, close)');
    }
    checkProfileSettings({ profile, shellProfile, toolNames: options.toolNames });
    checkShellEnvironmentPolicy(options.shellEnvironment);
    checkCodeSearchOptions(options.codeSearch);
    checkTelemetryOptions(options.telemetry);
    return;
  }
  if (typeof workspace !== 'string' || !isAbsolute(workspace)) {
    throw new ToolHostError('invalid_options', `workspace must be an absolute path, got ${JSON.stringify(workspace)}`);
  }
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw new ToolHostError('invalid_options', `workspace ${workspace} is not an existing folder`);
  }
  checkProfileSettings({ profile, shellProfile, toolNames: options.toolNames });
  checkShellEnvironmentPolicy(options.shellEnvironment);
  checkCodeSearchOptions(options.codeSearch);
  checkTelemetryOptions(options.telemetry);
}

/**
 * Creates a tool host over a folder on this machine (`workspace`) or over an environment (a Docker container, an SSH
 * host). `host.tools` is what to offer the model; `host.call(name, args)` runs one of its tool calls and resolves to the
 * text to show it (a model's mistake is an `ok: false` result, never an exception); `host.close()` kills every process
 * the commands started and removes the spooled output.
 *
 * @example
 * ```ts
 * import { createToolHost } from 'toolhost';
 *
 * const host = createToolHost({ workspace: '/abs/path/to/repo', profile: 'advanced' });
 * try {
 *   const result = await host.call('exec_command', { cmd: 'npm test', max_output_tokens: 2000 });
 *   console.log(result.ok, result.data?.exit_code, result.output);
 * } finally {
 *   await host.close();
 * }
 * ```
 *
 * @throws `ToolHostError` with code `invalid_options` when an option is wrong: `workspace` not an absolute path of an
 * existing folder, both or neither of `workspace` and `environment`, an unknown `profile` or `shellProfile`, a malformed
 * `shellEnvironment` or `codeSearch`, a catalog entry without a valid name, description, input schema or handler, or a
 * negative `catalogEmbeddingWeight`; with code `duplicate_tool` when two catalog entries share a name or one takes a
 * built-in tool's.
 */
export function createToolHost(options: ToolHostOptions): ToolHost {
  checkOptions(options);
  const profile = options.profile ?? 'default';
  const environment = options.environment ?? createLocalEnvironment({ root: options.workspace! });
  const exec = createExecTools({
    gateway: options.gateway,
    onOutput: options.onOutput,
    processes: environment.processes,
    shellEnvironment: options.shellEnvironment,
  });
  const shell = resolveShellProfile(options.shellProfile ?? 'auto', {
    ...(environment.kind === 'local' ? currentShellEnvironment() : { platform: environment.platform, env: {} }),
    ripgrep: exec.commandsFindRipgrep,
  });
  const workspace = environment.workspace;
  const runtime = createToolRuntime({
    profile,
    guidance: shell,
    workspace,
    spool: createFileSpool(options.spoolDir),
    tokenizer: options.tokenizer ?? gptTokenizer,
    implementations: createBuiltinImplementations(profile, {
      exec: () => exec,
      patch: createPatchEngine,
      codeSearch: () => createCodeSearchEngine(options.codeSearch),
    }),
    catalog: options.catalog,
    catalogEmbedder: options.catalogEmbedder,
    catalogEmbeddingWeight: options.catalogEmbeddingWeight,
    verification: options.verification,
    vocabulary: vocabularyOf(options.toolNames),
    telemetry: options.telemetry,
    environmentKind: environment.kind,
    onClose: async () => {
      try {
        await exec.close();
      } finally {
        await environment.close();
      }
    },
  });
  return forwardToolSurface<ToolHost>(runtime, { shell, profile });
}
