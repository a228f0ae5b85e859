import type { ToolDefinition, ToolResult, ToolVocabulary } from '@toolhost/core';
import type { ToolCatalog } from '@toolhost/catalog';
import type { FileOperation } from '@toolhost/patch';
import type { ToolResultFor, ToolResultOf } from './builtin-tool-specs.js';
import type { WorkspacePathRead } from './read-workspace-path.js';
import type { CommandRun, CommandRunOptions } from './command-runs.js';

/** Per-call options of {@link ToolSurface.call}. */
export interface ToolCallOptions {
  /** Cancels the call: a command it runs or polls is killed (whole process tree) and the call answers at once. */
  signal?: AbortSignal;
  /**
   * The tools the model that made the call was given, when it is not the host's (a provider's native shell calling
   * exec_command): texts that point at another tool name those.
   */
  vocabulary?: ToolVocabulary;
  /** The provider's id of this call (OpenAI `call_id`, Anthropic `tool_use` id, MCP request id), for its trace span. */
  callId?: string;
}

/** Options of {@link ToolSurface.edit}. */
export interface EditOptions {
  /** The tools the model that sent the edit was given, for the texts of a refusal (default: the host's). */
  vocabulary?: ToolVocabulary;
  /** Cancels the edit before it is applied. */
  signal?: AbortSignal;
  /** Token budget of the result (default 10,000). */
  maxOutputTokens?: number;
  /** The provider's id of the edit's call, for its trace span. */
  callId?: string;
}

/** Options of {@link ToolSurface.shellPatch}. */
export interface ShellPatchOptions {
  /** The folder the shell would run the command in (absolute, or relative to the workspace root); default the root. */
  workdir?: string;
  /** The tools the model that sent the command was given, for the texts of the answer (default: the host's). */
  vocabulary?: ToolVocabulary;
  /** Cancels the edit before it is applied. */
  signal?: AbortSignal;
  /** Token budget of the result (default 10,000). */
  maxOutputTokens?: number;
  /** The provider's id of the command's call, for its trace span. */
  callId?: string;
}

/** Text fitted to a token budget by {@link ToolSurface.budget}. */
export interface BudgetedText {
  /** The text, or its head and tail around a marker naming the left-out tokens and the spool file. */
  output: string;
  truncated: boolean;
  /** The spool file holding the whole text, when it was truncated. */
  spool_path?: string;
}

/** The model-facing tool surface every host shows: the real host, the fake host and the runtime behind both. */
export interface ToolSurface {
  /** Tools visible to the model in the current request segment. */
  readonly tools: ToolDefinition[];
  /** Catalog tools not visible yet, for providers that load deferred tools themselves (Anthropic's `defer_loading`). */
  readonly deferredTools: ToolDefinition[];
  /** The deferred catalog; entries can be added and removed at run time. */
  readonly catalog: ToolCatalog;
  /**
   * Runs one tool call; model mistakes come back as `ok:false` results, never as exceptions. `options.signal` cancels it.
   * A built-in tool's result has its `data` typed ({@link ToolResultOf}).
   */
  call<Name extends string>(name: Name, args?: unknown, options?: ToolCallOptions): Promise<ToolResultFor<Name>>;
  /**
   * Runs a command to its end through exec_command and write_stdin and answers as data: its output, exit code, and
   * whether it timed out (`options.timeoutMs`, default 120,000 ms) or was cancelled (`options.signal`); either kills
   * its whole process tree. A patch sent as the command is answered by the patch engine, as exec_command answers it.
   */
  run(command: string, options?: CommandRunOptions): Promise<CommandRun>;
  /** Reads a workspace text file or lists a folder with the tools' boundary checks (for provider-native editors). */
  readPath(path: string): Promise<WorkspacePathRead>;
  /**
   * Applies file operations given as data (provider-native editors) with the apply_patch engine: all or nothing,
   * each operation touching only the paths it names, counted by the anti-blind-editing gate, fitted to a budget, texts
   * in `options.vocabulary`'s tool names.
   */
  edit(operations: readonly FileOperation[], options?: EditOptions): Promise<ToolResultOf<'apply_patch'>>;
  /**
   * Answers a shell command that is a patch, as exec_command answers one, without running anything: an `apply_patch`
   * heredoc or argument (Codex's invocation forms) is applied by the patch engine, paths relative to
   * `options.workdir`; a bare patch is refused. Undefined for any other command, which the caller runs (a provider's
   * persistent shell checks each command with it before sending it).
   */
  shellPatch(command: string, options?: ShellPatchOptions): Promise<ToolResult | undefined>;
  /**
   * Tells the anti-blind-editing gate that a command ran to completion outside exec_command (a provider's persistent
   * shell), so a verification there resets the gate, whatever its exit code, as it would through exec_command.
   */
  recordCommand(cmd: string, exitCode: number): void;
  /** Fits text to a token budget (default 10,000; under 100 counts as 100) as every tool output is fitted: head and tail kept, the whole text spooled. */
  budget(label: string, text: string, maxOutputTokens?: number): Promise<BudgetedText>;
  /** Starts the next request segment; deferred tools found by search_tools join `tools`. */
  nextSegment(): ToolDefinition[];
  /** Kills every session and removes the spool; every later call throws `host_closed`. */
  close(): Promise<void>;
}
