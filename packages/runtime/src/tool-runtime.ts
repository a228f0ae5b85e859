import { okResult } from '@toolhost/core';
import type { Spool, Tokenizer, ToolResult, ToolVocabulary, Workspace } from '@toolhost/core';
import type { CatalogEmbedder, CatalogEntry } from '@toolhost/catalog';
import type { ShellGuidance, ToolProfile, VerificationGate, VerificationGateOptions } from '@toolhost/profiles';
import { runCommand } from './command-runs.js';
import { budgetedText, clampBudget } from './fit-output.js';
import { readWorkspacePath } from './read-workspace-path.js';
import { createRuntimeCall } from './runtime-call.js';
import { assembleRuntime } from './runtime-parts.js';
import type { BuiltinImplementations } from './tool-engines.js';
import type { ToolSurface } from './tool-surface.js';
import type { TelemetryOptions } from './tool-telemetry.js';

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
  const parts = assembleRuntime(options);
  const { vocabulary, gate, lifecycle, visibility, publicCatalog, visibleDefinitions, implementations } = parts;
  const { applyOperations, shellSentPatch, fit, traced } = parts;
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
    call: createRuntimeCall(parts, options),
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
