import * as z from 'zod';
import {
  ErrorCode,
  ToolHostError,
  budgetOutput,
  DEFAULT_MAX_OUTPUT_TOKENS,
  MAX_OUTPUT_TOKENS_LIMIT,
  MAX_OUTPUT_TOKENS_FLOOR,
  errorResult,
  maxOutputTokensSchema,
  okResult,
  preflightMaxOutputTokens,
  resolveWorkspacePath,
  toJsonSchema,
  validateArguments,
  type Spool,
  type Tokenizer,
  type ToolContext,
  type ToolDefinition,
  type ToolImplementation,
  type ToolResult,
  type Workspace,
} from '@toolhost/core';
import {
  catalogEntrySchema,
  createSearchToolsTool,
  createToolCatalog,
  isZodInputSchema,
  validateJsonSchemaArguments,
  type CatalogEmbedder,
  type CatalogEntry,
  type ToolCatalog,
} from '@toolhost/catalog';
import { parseApplyPatchInvocation, rebasePatchPaths, type ApplyPatchInvocation } from './apply-patch-invocation.js';
import { isLegacyToolName, legacyToolMessage } from './legacy-tools.js';
import type { ShellGuidance } from './shell-profile.js';
import { describeBuiltinTool } from './tool-descriptions.js';
import { PROFILE_TOOLS, type ToolProfile } from './tool-profile.js';
import { createVerificationGate, type VerificationGate, type VerificationGateOptions } from './verification-gate.js';
import { readWorkspacePath, type WorkspacePathRead } from './read-workspace-path.js';

/** The built-in tool implementations a runtime dispatches to (search_tools is built from the catalog). */
export interface BuiltinImplementations {
  exec_command: ToolImplementation;
  write_stdin: ToolImplementation;
  apply_patch: ToolImplementation;
  /** `prepare`, when present, is called with the workspace as the runtime starts (code_search starts its index there). */
  code_search?: ToolImplementation & { prepare?(workspace: Workspace): void };
}

/** Options of {@link createToolRuntime}. */
export interface ToolRuntimeOptions {
  profile: ToolProfile;
  guidance: ShellGuidance;
  workspace: Workspace;
  spool: Spool;
  tokenizer: Tokenizer;
  implementations: BuiltinImplementations;
  catalog?: CatalogEntry[];
  /** Embeds catalog tools and queries for hybrid search_tools ranking. */
  catalogEmbedder?: CatalogEmbedder;
  /** Weight of the embedding ranking in hybrid ranking (see `ToolCatalogOptions.embeddingWeight` of the catalog package). */
  catalogEmbeddingWeight?: number;
  verification?: VerificationGateOptions;
  /** Called after every call with its arguments and result (for recording). */
  onCall?: (name: string, args: unknown, result: ToolResult) => void;
  /** Releases what the implementations hold; called once by `close()`. */
  onClose?: () => Promise<void>;
}

/** Per-call options of {@link ToolRuntime.call}. */
export interface ToolCallOptions {
  /** Cancels the call: a command it runs or polls is killed (whole process tree) and the call answers at once. */
  signal?: AbortSignal;
}

/** Text fitted to a token budget by {@link ToolRuntime.budget}. */
export interface BudgetedText {
  /** The text, or its head and tail around a marker naming the left-out tokens and the spool file. */
  output: string;
  truncated: boolean;
  /** The spool file holding the whole text, when it was truncated. */
  spool_path?: string;
}

/** The dispatch core shared by the real and the fake host. */
export interface ToolRuntime {
  /** Tools visible to the model in the current request segment. */
  readonly tools: ToolDefinition[];
  /** Catalog tools not visible yet, for providers that load deferred tools themselves (Anthropic's `defer_loading`). */
  readonly deferredTools: ToolDefinition[];
  readonly catalog: ToolCatalog;
  readonly gate: VerificationGate;
  readonly closed: boolean;
  call(name: string, args?: unknown, options?: ToolCallOptions): Promise<ToolResult>;
  /** Reads a workspace text file or lists a folder with the tools' boundary checks (for provider-native editors). */
  readPath(path: string): Promise<WorkspacePathRead>;
  /**
   * Tells the anti-blind-editing gate that a command ran to completion outside exec_command (a provider's persistent
   * shell), so a passing verification there clears the gate as it would through exec_command.
   */
  recordCommand(cmd: string, exitCode: number): void;
  /** Fits text to a token budget (default 10,000; under 100 counts as 100) as every tool output is fitted: head and tail kept, the whole text spooled. */
  budget(label: string, text: string, maxOutputTokens?: number): Promise<BudgetedText>;
  nextSegment(): ToolDefinition[];
  close(): Promise<void>;
}

/** The line that follows the result of an apply_patch heredoc sent through exec_command. */
export const APPLY_PATCH_VIA_EXEC_NOTE =
  'Note: this apply_patch command went to the apply_patch tool, not to a shell. Call the apply_patch tool directly instead of exec_command.';

const MAX_OUTPUT_TOKENS_JSON = (toJsonSchema(z.object({ max_output_tokens: maxOutputTokensSchema })).properties as Record<string, unknown>)
  .max_output_tokens;

interface CatalogTool {
  implementation: ToolImplementation;
  definition: ToolDefinition;
}

/** Catalog tools built once per entry object (schemas are converted once, not on every listing or call). */
const catalogTools = new WeakMap<CatalogEntry, CatalogTool>();

function catalogImplementation(entry: CatalogEntry): CatalogTool {
  const cached = catalogTools.get(entry);
  if (cached) return cached;
  let schema: z.ZodObject;
  let inputSchema: Record<string, unknown>;
  let jsonSchema: Record<string, unknown> | undefined;
  if (isZodInputSchema(entry.inputSchema)) {
    schema = z.strictObject({ ...entry.inputSchema.shape, max_output_tokens: maxOutputTokensSchema });
    inputSchema = toJsonSchema(schema);
  } else {
    // A JSON Schema entry: the zod schema checks max_output_tokens only; the arguments are checked against the entry's
    // own JSON Schema (required fields, types, enums, unknown fields) before the handler runs.
    const json = catalogEntrySchema(entry);
    const properties = { ...((json.properties as Record<string, unknown>) ?? {}) };
    properties.max_output_tokens = MAX_OUTPUT_TOKENS_JSON;
    inputSchema = { ...json, type: 'object', properties };
    schema = z.looseObject({ max_output_tokens: maxOutputTokensSchema });
    jsonSchema = json;
  }
  const implementation: ToolImplementation = {
    name: entry.name,
    schema,
    async execute(args, context) {
      const { max_output_tokens: _budget, ...rest } = args;
      let values: Record<string, unknown> = rest;
      if (jsonSchema) {
        const checked = validateJsonSchemaArguments(entry.name, jsonSchema, rest);
        if (!checked.ok) return errorResult(ErrorCode.InvalidArguments, checked.message);
        values = checked.value;
      }
      const outcome = await entry.handler(values, context);
      return typeof outcome === 'string' ? okResult(outcome) : outcome;
    },
  };
  const tool = { implementation, definition: { name: entry.name, description: entry.description, inputSchema } };
  catalogTools.set(entry, tool);
  return tool;
}

function builtinDefinition(implementation: ToolImplementation, guidance: ShellGuidance): ToolDefinition {
  const definition: ToolDefinition = {
    name: implementation.name,
    description: describeBuiltinTool(implementation.name, guidance),
    inputSchema: toJsonSchema(implementation.schema),
  };
  if (implementation.freeform) definition.freeform = implementation.freeform;
  return definition;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A patch result answered to exec_command: the result, then one line pointing the model at the apply_patch tool. Its
 * data gains `exit_code` (0 applied, 1 refused), as an apply_patch program would exit, for callers that read one.
 */
function withPatchNote(result: ToolResult): ToolResult {
  const data = { ...result.data, exit_code: result.ok ? 0 : 1 };
  if (result.error) return errorResult(result.error.code, `${result.error.message}\n${APPLY_PATCH_VIA_EXEC_NOTE}`, data);
  return { ...result, output: `${result.output.replace(/\n*$/, '\n')}${APPLY_PATCH_VIA_EXEC_NOTE}`, data };
}

/** Creates the dispatch core: tool list, preflight, validation, gate, budgeting and deferred expansion. */
export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const guidance = options.guidance;
  const catalog = createToolCatalog(options.catalog ?? [], { embedder: options.catalogEmbedder, embeddingWeight: options.catalogEmbeddingWeight });
  const gate = createVerificationGate(options.verification);
  const abort = new AbortController();
  // Every call in flight listens for the host closing; many concurrent calls are normal, not a leak. (Node only;
  // reached through process.getBuiltinModule so this package imports no Node builtin.)
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const events = nodeProcess?.getBuiltinModule?.('node:events') as { setMaxListeners?: (n: number, target: EventTarget) => void } | undefined;
  events?.setMaxListeners?.(0, abort.signal);
  const expanded: string[] = [];
  const pending: string[] = [];
  let closed = false;
  let closing: Promise<void> | undefined;

  const searchTools = createSearchToolsTool({
    catalog,
    availability(name) {
      const entry = catalog.get(name);
      if (entry?.deferred === false || expanded.includes(name)) return 'callable';
      return pending.includes(name) ? 'pending' : 'hidden';
    },
    onMatched(names) {
      for (const name of names) if (!expanded.includes(name) && !pending.includes(name)) pending.push(name);
    },
  });
  const builtins = new Map<string, ToolImplementation>();
  for (const name of PROFILE_TOOLS[options.profile]) {
    const implementation = name === 'search_tools' ? searchTools : options.implementations[name as keyof BuiltinImplementations];
    if (!implementation) throw new ToolHostError('invalid_options', `profile ${options.profile} needs an implementation of ${name}`);
    builtins.set(name, implementation);
  }
  if (builtins.has('code_search')) options.implementations.code_search?.prepare?.(options.workspace);
  const patchTool = builtins.get('apply_patch');
  const builtinDefinitions = [...builtins.values()].map((impl) => builtinDefinition(impl, guidance));
  const checkCatalogName = (name: unknown) => {
    if (typeof name === 'string' && (builtins.has(name) || name === 'search_tools' || isLegacyToolName(name))) {
      throw new ToolHostError('duplicate_tool', `catalog entry ${name} collides with a built-in or legacy tool name`);
    }
  };
  for (const entry of catalog.list()) checkCatalogName(entry.name);
  /** The catalog as callers see it: names are checked against the built-ins, and a removed tool leaves the tool list. */
  const publicCatalog: ToolCatalog = {
    add(entry) {
      for (const item of Array.isArray(entry) ? entry : [entry]) checkCatalogName(item?.name);
      catalog.add(entry);
    },
    remove(name) {
      const removed = catalog.remove(name);
      for (const list of [expanded, pending]) {
        const index = list.indexOf(name);
        if (index >= 0) list.splice(index, 1);
      }
      return removed;
    },
    get: (name) => catalog.get(name),
    list: () => catalog.list(),
    search: (query, limit) => catalog.search(query, limit),
    find: (query, limit) => catalog.find(query, limit),
  };

  const catalogTool = (name: string) => {
    const entry = catalog.get(name);
    if (!entry) return undefined;
    if (entry.deferred !== false && !expanded.includes(name)) return undefined;
    return catalogImplementation(entry);
  };

  const visibleDefinitions = (): ToolDefinition[] => {
    const list = [...builtinDefinitions];
    for (const entry of catalog.list()) if (entry.deferred === false) list.push(catalogImplementation(entry).definition);
    for (const name of expanded) {
      const tool = catalogTool(name);
      if (tool && catalog.get(name)?.deferred !== false) list.push(tool.definition);
    }
    return list;
  };

  const context = (maxOutputTokens: number, signal: AbortSignal): ToolContext => ({
    workspace: options.workspace,
    tokenizer: options.tokenizer,
    spool: options.spool,
    maxOutputTokens,
    shell: guidance.kind,
    signal,
  });

  const unknownTool = (name: string): ToolResult => {
    const entry = catalog.get(name);
    if (entry && pending.includes(name)) {
      return errorResult(ErrorCode.UnknownTool, `${name} was found by search_tools and becomes callable in the next request.`);
    }
    if (entry) return errorResult(ErrorCode.UnknownTool, `${name} is not loaded. Call search_tools with {"query":"${name}"} first; it becomes callable in the next request.`);
    const names = visibleDefinitions().map((d) => d.name).join(', ');
    return errorResult(ErrorCode.UnknownTool, `No tool named ${JSON.stringify(String(name).slice(0, 100))}. Available tools: ${names}. Use search_tools to find others.`);
  };

  // Returns the result and the output budget it must fit (the default when the call never got far enough to set one).
  const dispatch = async (name: string, rawArgs: unknown, signal: AbortSignal): Promise<{ result: ToolResult; budget: number }> => {
    let budget = DEFAULT_MAX_OUTPUT_TOKENS;
    const result = await dispatchWithin(name, rawArgs, signal, (value) => (budget = value));
    return { result, budget };
  };

  const dispatchWithin = async (name: string, rawArgs: unknown, signal: AbortSignal, setBudget: (value: number) => void): Promise<ToolResult> => {
    if (typeof name !== 'string') return errorResult(ErrorCode.UnknownTool, 'tool name must be a string');
    if (isLegacyToolName(name)) return errorResult(ErrorCode.LegacyTool, legacyToolMessage(name));
    const implementation = builtins.get(name) ?? catalogTool(name)?.implementation;
    if (!implementation) return unknownTool(name);
    let args: unknown = rawArgs ?? {};
    if (typeof args === 'string') {
      if (implementation.fromFreeform && !args.trimStart().startsWith('{')) args = implementation.fromFreeform(args);
      else {
        try {
          args = JSON.parse(args);
        } catch {
          return errorResult(ErrorCode.InvalidArguments, `Invalid arguments for ${name}: arguments must be a JSON object`);
        }
      }
    }
    if (!isPlainObject(args)) return errorResult(ErrorCode.InvalidArguments, `Invalid arguments for ${name}: arguments must be a JSON object`);
    const budget = preflightMaxOutputTokens(args);
    if (!budget.ok) return errorResult(ErrorCode.InvalidArguments, budget.message);
    setBudget(budget.value);
    const normalized = implementation.normalize ? implementation.normalize(args) : args;
    const valid = validateArguments(name, implementation.schema, normalized);
    if (!valid.ok) return errorResult(ErrorCode.InvalidArguments, valid.message);
    const values = valid.value as Record<string, unknown>;
    if (name === 'exec_command' && patchTool && typeof values.cmd === 'string') {
      const invocation = parseApplyPatchInvocation(values.cmd);
      if (invocation) return withPatchNote(await patchThroughExec(invocation, values.workdir, budget.value, signal));
    }
    const blocked = gate.check(name);
    if (blocked) return blocked;
    let result: ToolResult;
    try {
      result = await implementation.execute(values, context(budget.value, signal));
    } catch (error) {
      if (closed) return errorResult(ErrorCode.ToolFailed, `${name} was interrupted because the host closed`);
      const message = error instanceof Error ? error.message : String(error);
      result = errorResult(ErrorCode.InternalError, `${name} failed unexpectedly: ${message}`);
    }
    gate.record(name, values, result);
    return result;
  };

  /**
   * The folder a heredoc's patch paths are relative to: workdir, then the `cd` argument (an absolute or home-relative
   * one replaces workdir, as in a shell, and is checked as such); or a result refusing it.
   */
  const patchDirectory = async (invocation: ApplyPatchInvocation, workdir: unknown): Promise<string | ToolResult> => {
    const parts = [typeof workdir === 'string' ? workdir : '', invocation.directory ?? ''];
    const joined = parts.reduce((base, part) => (part === '' ? base : part.startsWith('/') || part.startsWith('~') || base === '' ? part : `${base}/${part}`), '');
    if (joined === '') return '';
    const what = invocation.directory === undefined ? 'workdir' : `cd ${invocation.directory}`;
    const check = await resolveWorkspacePath(options.workspace, joined);
    if (!check.ok) return errorResult(ErrorCode.OutsideWorkspace, `${what}: ${check.message}; nothing was changed. Patch paths are relative to the workspace root ${options.workspace.root}.`);
    if (check.relative === '') return '';
    const stat = await options.workspace.stat(check.relative);
    if (stat?.kind !== 'directory') return errorResult(ErrorCode.ToolFailed, `${what}: ${check.relative} is not an existing folder; nothing was changed.`);
    return check.relative;
  };

  /** Applies an apply_patch heredoc sent to exec_command through the patch tool: same engine, same gate. */
  const patchThroughExec = async (invocation: ApplyPatchInvocation, workdir: unknown, budget: number, signal: AbortSignal): Promise<ToolResult> => {
    const blocked = gate.check('apply_patch');
    if (blocked) return blocked;
    let args: Record<string, unknown> = { input: invocation.patch };
    let result: ToolResult;
    try {
      const directory = await patchDirectory(invocation, workdir);
      if (typeof directory !== 'string') result = directory;
      else {
        args = { input: rebasePatchPaths(invocation.patch, directory) };
        const valid = validateArguments('apply_patch', patchTool!.schema, args);
        result = valid.ok ? await patchTool!.execute(valid.value as Record<string, unknown>, context(budget, signal)) : errorResult(ErrorCode.InvalidArguments, valid.message);
      }
    } catch (error) {
      if (closed) result = errorResult(ErrorCode.ToolFailed, 'apply_patch was interrupted because the host closed');
      else result = errorResult(ErrorCode.InternalError, `apply_patch failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
    }
    gate.record('apply_patch', args, result);
    return result;
  };

  // Every result, errors included, fits its budget; the complete text goes to the spool.
  const fit = async (name: string, result: ToolResult, budget: number): Promise<ToolResult> => {
    if (options.tokenizer.isWithin(result.output, budget)) return result;
    // A tool that already spooled its complete output (exec) keeps that file; only other text is spooled here.
    const existing = result.data?.spool_path;
    const path = typeof existing === 'string' ? existing : await options.spool.save(String(name).slice(0, 60), result.output);
    const fitted = budgetOutput(result.output, budget, options.tokenizer, { note: `Full output: ${path}` });
    const fittedResult: ToolResult = { ...result, output: fitted.text, data: { ...result.data, truncated: true, spool_path: path } };
    if (result.error) fittedResult.error = { code: result.error.code, message: fitted.text };
    return fittedResult;
  };

  return {
    get tools() {
      return visibleDefinitions();
    },
    get deferredTools() {
      const visible = new Set(visibleDefinitions().map((definition) => definition.name));
      return catalog.list().filter((entry) => !visible.has(entry.name)).map((entry) => catalogImplementation(entry).definition);
    },
    catalog: publicCatalog,
    gate,
    get closed() {
      return closed;
    },
    async call(name, args, callOptions) {
      if (closed) throw new ToolHostError('host_closed', 'the tool host is closed');
      const signal = callOptions?.signal ? AbortSignal.any([abort.signal, callOptions.signal]) : abort.signal;
      let result: ToolResult;
      try {
        const outcome = await dispatch(name, args, signal);
        result = await fit(name, outcome.result, outcome.budget);
      } catch (error) {
        if (ToolHostError.is(error)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        result = await fit(name, errorResult(ErrorCode.InternalError, `${String(name).slice(0, 100)} failed unexpectedly: ${message}`), DEFAULT_MAX_OUTPUT_TOKENS);
      }
      options.onCall?.(name, args, result);
      return result;
    },
    readPath(path) {
      if (closed) throw new ToolHostError('host_closed', 'the tool host is closed');
      return readWorkspacePath(options.workspace, path);
    },
    recordCommand(cmd, exitCode) {
      if (closed) throw new ToolHostError('host_closed', 'the tool host is closed');
      gate.record('exec_command', { cmd }, okResult('', { exit_code: exitCode }));
    },
    async budget(label, text, maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS) {
      if (closed) throw new ToolHostError('host_closed', 'the tool host is closed');
      const limit = Math.min(MAX_OUTPUT_TOKENS_LIMIT, Math.max(MAX_OUTPUT_TOKENS_FLOOR, Math.floor(Number.isFinite(maxOutputTokens) ? maxOutputTokens : DEFAULT_MAX_OUTPUT_TOKENS)));
      const fitted = await fit(label, okResult(text), limit);
      const spoolPath = fitted.data?.spool_path;
      return typeof spoolPath === 'string' ? { output: fitted.output, truncated: true, spool_path: spoolPath } : { output: fitted.output, truncated: false };
    },
    nextSegment() {
      if (closed) throw new ToolHostError('host_closed', 'the tool host is closed');
      for (const name of pending.splice(0)) if (!expanded.includes(name) && catalog.get(name)) expanded.push(name);
      return visibleDefinitions();
    },
    close() {
      if (!closing) {
        closed = true;
        abort.abort();
        closing = (async () => {
          const closers = [...builtins.values()].map((impl) => impl.close?.());
          await Promise.allSettled(closers);
          await options.onClose?.();
          await options.spool.dispose();
        })();
      }
      return closing;
    },
  };
}
