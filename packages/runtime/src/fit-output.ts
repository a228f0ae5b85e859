import {
  budgetOutput,
  commandChunkOf,
  withCommandChunk,
  DEFAULT_MAX_OUTPUT_TOKENS,
  MAX_OUTPUT_TOKENS_LIMIT,
  MAX_OUTPUT_TOKENS_FLOOR,
  type Spool,
  type Tokenizer,
  type ToolResult,
} from '@toolhost/core';
import type { BudgetedText } from './tool-surface.js';

/** Fits a result to a token budget: head and tail kept around a marker, the complete text in the spool. */
export type OutputFitter = (label: string, result: ToolResult, budget: number) => Promise<ToolResult>;

/** Creates the fitter every result goes through, errors included. */
export function createOutputFitter(tokenizer: Tokenizer, spool: Spool): OutputFitter {
  return async (label, result, budget) => {
    if (tokenizer.isWithin(result.output, budget)) return result;
    // A tool that already spooled its complete output (exec) keeps that file; only other text is spooled here.
    const existing = result.data?.spool_path;
    const path = typeof existing === 'string' ? existing : await spool.save(String(label).slice(0, 60), result.output);
    const fitted = budgetOutput(result.output, budget, tokenizer, { note: `Full output: ${path}` });
    const fittedResult: ToolResult = { ...result, output: fitted.text, data: { ...result.data, truncated: true, spool_path: path } };
    if (result.error) fittedResult.error = { code: result.error.code, message: fitted.text };
    const chunk = commandChunkOf(result);
    return chunk ? withCommandChunk(fittedResult, chunk) : fittedResult;
  };
}

/** A budget a caller gave outside a tool call, as a whole number of tokens within the limits (default 10,000). */
export function clampBudget(maxOutputTokens: number | undefined): number {
  const requested = Number.isFinite(maxOutputTokens) ? maxOutputTokens! : DEFAULT_MAX_OUTPUT_TOKENS;
  return Math.min(MAX_OUTPUT_TOKENS_LIMIT, Math.max(MAX_OUTPUT_TOKENS_FLOOR, Math.floor(requested)));
}

/** A fitted text result as {@link BudgetedText}. */
export function budgetedText(fitted: ToolResult): BudgetedText {
  const spoolPath = fitted.data?.spool_path;
  return typeof spoolPath === 'string'
    ? { output: fitted.output, truncated: true, spool_path: spoolPath }
    : { output: fitted.output, truncated: false };
}
