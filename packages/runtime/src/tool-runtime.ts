import { DEFAULT_MAX_OUTPUT_TOKENS, ErrorCode, ToolHostError, errorResult, okResult, TOOLHOST_VOCABULARY } from '@toolhost/core';
import type { Spool, Tokenizer, ToolResult, ToolVocabulary, Workspace } from '@toolhost/core';
import { createToolCatalog, type CatalogEmbedder, type CatalogEntry } from '@toolhost/catalog';
import {
  createVerificationGate,
  isLegacyToolName,
  type ShellGuidance,
  type ToolProfile,
  type VerificationGate,
  type VerificationGateOptions,
} from '@toolhost/profiles';
import { openWorkspaceForEdits } from '@toolhost/patch';
import { builtinDefinition, profileTools } from './builtin-tools.js';
import type { ToolResultFor } from './builtin-tool-specs.js';
import { callContext } from './call-context.js';
import { runCommand } from './command-runs.js';
import { createCatalogVisibility } from './catalog-visibility.js';
import { createDispatch } from './dispatch-call.js';
import { createEditPath } from './edit-path.js';
import { budgetedText, clampBudget, createOutputFitter } from './fit-output.js';
import { createLifecycle } from './lifecycle.js';
import { createPublicCatalog } from './public-catalog.js';
import { readWorkspacePath } from './read-workspace-path.js';
import { createShellSentPatch } from './shell-sent-patch.js';
import type { BuiltinImplementations } from './tool-engines.js';
import type { ToolCallOptions, ToolSurface } from './tool-surface.js';
import { createToolTelemetry, type TelemetryOptions } from './tool-telemetry.js';

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
  /**
   * The names of the tools the model was given, when they are not toolhost's own (a caller that exposes exec_command
   * as `run`): texts that point at another tool use them. Native surfaces pass their own per call.
   */
  vocabulary?: ToolVocabulary;
  /** What the `execute_tool` trace spans of the calls record. */
  telemetry?: TelemetryOptions;
  /** Where the tools run (local, docker, ssh…), recorded on every span. */
  environmentKind?: string;
  /** Called after every call with its arguments and result (for recording). */
  onCall?: (name: string, args: unknown, result: ToolResult) => void;
  /** Releases what the implementations hold; called once by `close()`. */
  onClose?: () => Promise<void>;
}

/** The dispatch core shared by the real and the fake host: their tool surface, the gate, and whether it is closed. */
export interface ToolRuntime extends ToolSurface {
  readonly gate: VerificationGate;
  readonly closed: boolean;
}

/** Creates the dispatch core: tool list, preflight, validation, gate, budgeting and deferred expansion. */
export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const vocabulary = options.vocabulary ?? TOOLHOST_VOCABULARY;
  const catalog = createToolCatalog(options.catalog ?? [], {
    embedder: options.catalogEmbedder,
    embeddingWeight: options.catalogEmbeddingWeight,
  });
  const gate = createVerificationGate(options.verification);
  const lifecycle = createLifecycle();
  const isClosed = () => lifecycle.closed;
  const visibility = createCatalogVisibility(catalog);
  const builtins = profileTools(options.profile, options.implementations, visibility.searchTools);
  const publicCatalog = createPublicCatalog(
    catalog,
    visibility,
    (name) => builtins.has(name) || name === 'search_tools' || isLegacyToolName(name),
  );
  if (builtins.has('code_search')) options.implementations.code_search?.prepare?.(options.workspace);
  // An edit a crashed process left half done is settled now; the next edit's result says what was done.
  void openWorkspaceForEdits(options.workspace);
  const builtinDefinitions = [...builtins.values()].map((tool) => builtinDefinition(tool, options.guidance));
  const visibleDefinitions = () => [...builtinDefinitions, ...visibility.definitions()];
  const context = callContext({
    workspace: options.workspace,
    tokenizer: options.tokenizer,
    spool: options.spool,
    shell: options.guidance.kind,
  });
  const patchTool = builtins.has('apply_patch') ? options.implementations.apply_patch : undefined;
  const implementations = new Map([...builtins].map(([name, tool]) => [name, tool.implementation]));
  const applyOperations = createEditPath({ patchTool, gate, context, isClosed });
  const shellSentPatch = createShellSentPatch(options.workspace, patchTool ? applyOperations : undefined);
  const dispatch = createDispatch({
    builtins: implementations,
    visibility,
    visibleNames: () => visibleDefinitions().map((definition) => definition.name),
    gate,
    context,
    shellSentPatch,
    isClosed,
  });
  const fit = createOutputFitter(options.tokenizer, options.spool);
  const traced = createToolTelemetry({
    options: options.telemetry,
    environment: options.environmentKind,
    countTokens: (text) => options.tokenizer.count(text),
  });
  const commandOf = (name: string, args: unknown): string | undefined =>
    name === 'exec_command' && args && typeof args === 'object' && typeof (args as { cmd?: unknown }).cmd === 'string'
      ? (args as { cmd: string }).cmd
      : undefined;

  const runtime: ToolRuntime = {
    get tools() {
      return visibleDefinitions();
    },
    get deferredTools() {
      return visibility.hidden(new Set(visibleDefinitions().map((definition) => definition.name)));
    },
    catalog: publicCatalog,
    gate,
    get closed() {
      return lifecycle.closed;
    },
    async call<Name extends string>(name: Name, args?: unknown, callOptions?: ToolCallOptions): Promise<ToolResultFor<Name>> {
      lifecycle.assertOpen();
      const signal = lifecycle.signal(callOptions?.signal);
      // The tool's own engine made the result, so its data has the shape the tool's spec gives it.
      return (await traced({ tool: String(name), callId: callOptions?.callId, command: commandOf(name, args) }, async () => {
        let result: ToolResult;
        let unfitted: ToolResult | undefined;
        try {
          const outcome = await dispatch(name, args, signal, callOptions?.vocabulary ?? vocabulary);
          unfitted = outcome.result;
          result = await fit(name, outcome.result, outcome.budget);
        } catch (error) {
          if (ToolHostError.is(error)) throw error;
          const message = error instanceof Error ? error.message : String(error);
          result = await fit(
            name,
            errorResult(ErrorCode.InternalError, `${String(name).slice(0, 100)} failed unexpectedly: ${message}`),
            DEFAULT_MAX_OUTPUT_TOKENS,
          );
        }
        options.onCall?.(name, args, result);
        const original = unfitted?.output;
        return {
          result,
          originalTokens: original !== undefined && original !== result.output ? () => options.tokenizer.count(original) : undefined,
        };
      })) as ToolResultFor<Name>;
    },
    run(command, runOptions) {
      return runCommand(runtime, command, runOptions);
    },
    readPath(path) {
      lifecycle.assertOpen();
      return readWorkspacePath(options.workspace, path);
    },
    async edit(operations, editOptions = {}) {
      lifecycle.assertOpen();
      const limit = clampBudget(editOptions.maxOutputTokens);
      const signal = lifecycle.signal(editOptions.signal);
      return traced({ tool: 'apply_patch', callId: editOptions.callId, operations: operations.length }, async () => {
        const applied = await applyOperations(operations, limit, signal, editOptions.vocabulary ?? vocabulary);
        const result = await fit('apply_patch', applied, limit);
        options.onCall?.('apply_patch', { operations }, result);
        return { result, originalTokens: applied.output !== result.output ? () => options.tokenizer.count(applied.output) : undefined };
      });
    },
    async shellPatch(command, patchOptions = {}) {
      lifecycle.assertOpen();
      const limit = clampBudget(patchOptions.maxOutputTokens);
      const signal = lifecycle.signal(patchOptions.signal);
      const patchVocabulary = patchOptions.vocabulary ?? vocabulary;
      // Only a command that is a patch is answered (and traced); any other is the caller's to run.
      const answered = await shellSentPatch(command, patchOptions.workdir, limit, signal, patchVocabulary);
      if (!answered) return undefined;
      return traced({ tool: 'apply_patch', callId: patchOptions.callId, command }, async () => {
        const result = await fit('apply_patch', answered, limit);
        options.onCall?.('apply_patch', { command }, result);
        return { result, originalTokens: answered.output !== result.output ? () => options.tokenizer.count(answered.output) : undefined };
      });
    },
    recordCommand(cmd, exitCode) {
      lifecycle.assertOpen();
      gate.record('exec_command', { cmd }, okResult('', { exit_code: exitCode }));
    },
    async budget(label, text, maxOutputTokens) {
      lifecycle.assertOpen();
      const limit = clampBudget(maxOutputTokens);
      return budgetedText(await fit(label, okResult(text), limit));
    },
    nextSegment() {
      lifecycle.assertOpen();
      visibility.nextSegment();
      return visibleDefinitions();
    },
    close() {
      return lifecycle.close(async () => {
        // An async wrapper, so a close that throws at once is settled like one that rejects and the others still run.
        await Promise.allSettled([...implementations.values()].map(async (implementation) => implementation.close?.()));
        await options.onClose?.();
        await options.spool.dispose();
      });
    },
  };
  return runtime;
}
