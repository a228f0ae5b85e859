import {
  ToolHostError,
  createMemorySpool,
  createMemoryWorkspace,
  gptTokenizer,
  type MemoryFileInput,
  type MemorySpool,
  type MemoryWorkspace,
  type Tokenizer,
  type ToolResult,
} from '@toolhost/core';
import type { CatalogEmbedder, CatalogEntry } from '@toolhost/catalog';
import {
  checkTelemetryOptions,
  createBuiltinImplementations,
  createCodeSearchEngine,
  createPatchEngine,
  createToolRuntime,
  forwardToolSurface,
  type TelemetryOptions,
} from '@toolhost/runtime';
import {
  checkProfileSettings,
  vocabularyOf,
  currentShellEnvironment,
  resolveShellProfile,
  type ShellEnvironment,
  type ShellProfileSetting,
  type ToolProfile,
  type VerificationGateOptions,
  type ToolNames,
} from '@toolhost/profiles';
import { createLocalProcesses } from '@toolhost/exec';
import type { ToolHost } from 'toolhost';
import { fakeCommandProblem, type FakeCommand } from './fake-command.js';
import { UNSCRIPTED_COMMAND, createScriptedExecTools } from './scripted-exec.js';

/** Options of {@link createFakeToolHost}. */
export interface FakeToolHostOptions {
  profile?: ToolProfile;
  shellProfile?: ShellProfileSetting;
  /** Initial workspace files: path → content (relative, or absolute under `root`). */
  files?: Record<string, MemoryFileInput>;
  /** Scripted exec_command replies; the first match wins. Each answers the same every run, in sequence, or from the workspace's files. */
  commands?: FakeCommand[];
  /** Tools that search_tools can surface. */
  catalog?: CatalogEntry[];
  /** Embeds catalog tools and queries so search_tools ranks by meaning as well as words (hybrid); each tool is embedded once. */
  catalogEmbedder?: CatalogEmbedder;
  /** Weight of the embedding ranking in hybrid ranking (default 1; see ToolCatalogOptions.embeddingWeight). */
  catalogEmbeddingWeight?: number;
  /** Throw a ToolHostError `unscripted_command` instead of returning an `ok:false` result for an unscripted command. */
  strict?: boolean;
  /** Counts output tokens (default: o200k_base, as the real host). */
  tokenizer?: Tokenizer;
  /** Anti-blind-editing settings. */
  verification?: VerificationGateOptions;
  /** The names the model was given for exec_command and apply_patch, when you list them under other names. */
  toolNames?: ToolNames;
  /** Absolute path the model sees as the workspace root (default `/workspace`). */
  root?: string;
  /**
   * The platform `shellProfile: 'auto'` resolves against, and whether commands find `rg` (default: the current process,
   * with `rg` as the real host on this machine finds it).
   */
  environment?: ShellEnvironment;
  /** What the OpenTelemetry `execute_tool` spans record, as on a real host. */
  telemetry?: TelemetryOptions;
}

/** One recorded call of the fake host. */
export interface RecordedCall {
  name: string;
  args: unknown;
  result: ToolResult;
}

/** A tool host over an in-memory workspace and scripted commands, with the real host's surface. */
export interface FakeToolHost extends ToolHost {
  /** Every call and its result, in order. */
  readonly calls: readonly RecordedCall[];
  /** The in-memory workspace the tools work on. */
  readonly workspace: MemoryWorkspace;
  /** The in-memory spool holding complete outputs of truncated results. */
  readonly spool: MemorySpool;
  /** The commands exec_command was asked to run, in order. */
  readonly commandsRun: readonly string[];
  /** Every workspace file as UTF-8 text, keyed by relative path. */
  files(): Record<string, string>;
}

function checkOptions(options: FakeToolHostOptions): void {
  if (!options || typeof options !== 'object') throw new ToolHostError('invalid_options', 'createFakeToolHost needs an options object');
  checkProfileSettings(options);
  checkTelemetryOptions(options.telemetry);
  const { commands } = options;
  for (const command of commands ?? []) {
    if (typeof command?.match !== 'string' && !(command?.match instanceof RegExp)) {
      throw new ToolHostError('invalid_options', 'each scripted command needs a string or RegExp `match`');
    }
    const problem = fakeCommandProblem(command);
    if (problem) throw new ToolHostError('invalid_options', problem);
  }
}

/** Whether commands of a real host on this machine, with the default command environment, find `rg` (nothing is started). */
function localCommandsFindRipgrep(): boolean {
  const local = createLocalProcesses();
  return local.findsRipgrep?.(local.baseEnvironment()) ?? false;
}

/**
 * Creates a fake tool host: the real dispatch core, patch engine and code search over in-memory files, with scripted exec.
 *
 * @example
 * ```ts
 * import { createFakeToolHost } from '@toolhost/testing';
 *
 * const host = createFakeToolHost({
 *   files: { 'src/greet.js': "export const greet = (name) => 'Helo, ' + name;\n" },
 *   commands: [{ match: 'npm test', output: '# pass 1\n' }],
 * });
 * await runMyAgent(host); // the agent code under test, written against the ToolHost type
 * expect(host.calls.map((call) => call.name)).toContain('apply_patch');
 * ```
 */
export function createFakeToolHost(options: FakeToolHostOptions = {}): FakeToolHost {
  checkOptions(options);
  const profile = options.profile ?? 'default';
  const shell = resolveShellProfile(
    options.shellProfile ?? 'auto',
    options.environment ?? { ...currentShellEnvironment(), ripgrep: localCommandsFindRipgrep() },
  );
  const workspace = createMemoryWorkspace(options.files ?? {}, options.root ?? '/workspace');
  const spool = createMemorySpool();
  const exec = createScriptedExecTools(options.commands ?? [], { files: () => workspace.snapshot() });
  const calls: RecordedCall[] = [];
  const runtime = createToolRuntime({
    profile,
    guidance: shell,
    workspace,
    spool,
    tokenizer: options.tokenizer ?? gptTokenizer,
    implementations: createBuiltinImplementations(profile, {
      exec: () => exec,
      patch: createPatchEngine,
      codeSearch: () => createCodeSearchEngine(),
    }),
    catalog: options.catalog,
    catalogEmbedder: options.catalogEmbedder,
    catalogEmbeddingWeight: options.catalogEmbeddingWeight,
    verification: options.verification,
    vocabulary: vocabularyOf(options.toolNames),
    telemetry: options.telemetry,
    environmentKind: 'fake',
    onCall: (name, args, result) => calls.push({ name, args, result }),
  });
  return forwardToolSurface<FakeToolHost>(runtime, {
    shell,
    profile,
    calls,
    workspace,
    spool,
    get commandsRun() {
      return exec.commandsRun;
    },
    files: () => workspace.snapshot(),
    async call(name, args, callOptions) {
      const result = await runtime.call(name, args, callOptions);
      const unscripted = result.data?.[UNSCRIPTED_COMMAND];
      if (options.strict && typeof unscripted === 'string') {
        throw new ToolHostError('unscripted_command', `the fake tool host has no scripted command matching ${JSON.stringify(unscripted)}`);
      }
      return result;
    },
  });
}
