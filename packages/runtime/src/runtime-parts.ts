import { TOOLHOST_VOCABULARY, type ToolDefinition, type ToolImplementation, type ToolVocabulary } from '@toolhost/core';
import { createToolCatalog } from '@toolhost/catalog';
import { createVerificationGate, isLegacyToolName, type VerificationGate } from '@toolhost/profiles';
import { openWorkspaceForEdits } from '@toolhost/patch';
import type { ToolCatalog } from '@toolhost/catalog';
import { builtinDefinition, profileTools } from './builtin-tools.js';
import { callContext } from './call-context.js';
import { createCatalogVisibility, type CatalogVisibility } from './catalog-visibility.js';
import { createDispatch, type DispatchCall } from './dispatch-call.js';
import { createEditPath, type ApplyOperations } from './edit-path.js';
import { createOutputFitter, type OutputFitter } from './fit-output.js';
import { createLifecycle, type Lifecycle } from './lifecycle.js';
import { createPublicCatalog } from './public-catalog.js';
import { createShellSentPatch, type ShellSentPatch } from './shell-sent-patch.js';
import type { ToolRuntimeOptions } from './tool-runtime.js';
import { createToolTelemetry, type ToolTelemetry } from './tool-telemetry.js';

/** What a runtime is built from: the catalog and its visibility, the gate, dispatch, the fitter and the spans. */
export interface RuntimeParts {
  vocabulary: ToolVocabulary;
  gate: VerificationGate;
  lifecycle: Lifecycle;
  visibility: CatalogVisibility;
  publicCatalog: ToolCatalog;
  /** The definitions of the tools visible now: the profile's, then the catalog tools of this segment. */
  visibleDefinitions: () => ToolDefinition[];
  implementations: ReadonlyMap<string, ToolImplementation>;
  applyOperations: ApplyOperations;
  shellSentPatch: ShellSentPatch;
  dispatch: DispatchCall;
  fit: OutputFitter;
  traced: ToolTelemetry;
}

/** Builds the parts of a runtime from its options: the profile's tools, the catalog, the gate and dispatch. */
export function assembleRuntime(options: ToolRuntimeOptions): RuntimeParts {
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
  return {
    vocabulary,
    gate,
    lifecycle,
    visibility,
    publicCatalog,
    visibleDefinitions,
    implementations,
    applyOperations,
    shellSentPatch,
    dispatch,
    fit,
    traced,
  };
}
