import type { ShellKind, Spool, Tokenizer, ToolContext, ToolVocabulary, Workspace } from '@toolhost/core';

/** The context one call runs in: its budget, its signal and the tool names its texts use. */
export type CallContext = (maxOutputTokens: number, signal: AbortSignal, vocabulary: ToolVocabulary) => ToolContext;

/** What every call of a runtime shares. */
export interface SharedContext {
  workspace: Workspace;
  tokenizer: Tokenizer;
  spool: Spool;
  shell: ShellKind;
}

/** Creates the per-call context maker of a runtime. */
export function callContext(shared: SharedContext): CallContext {
  return (maxOutputTokens, signal, vocabulary) => ({
    workspace: shared.workspace,
    tokenizer: shared.tokenizer,
    spool: shared.spool,
    maxOutputTokens,
    shell: shared.shell,
    signal,
    vocabulary,
  });
}
