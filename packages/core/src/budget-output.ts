import type { Tokenizer } from './tokenizer.js';

/** The outcome of fitting text into a token budget. */
export interface BudgetedOutput {
  /** The text to show: the whole text, or head + marker + tail. */
  text: string;
  truncated: boolean;
  /** Tokens in the whole text (an estimate when `estimated`). */
  originalTokens: number;
  /** True when the text was too large to count exactly and `originalTokens` was extrapolated. */
  estimated: boolean;
  /** Tokens left out of the preview (0 when not truncated). */
  omittedTokens: number;
}

/** Options for {@link budgetOutput}. */
export interface BudgetOptions {
  /** Appended inside the marker, e.g. where the complete output was spooled. */
  note?: string;
}

/** Text longer than this many characters is counted by sampling its head and tail instead of in full. */
export const EXACT_COUNT_LIMIT = 1_000_000;
const SAMPLE = 200_000;

/** Counts the tokens of `text`, extrapolating from samples for very long text. */
export function estimateTokens(text: string, tokenizer: Tokenizer): { tokens: number; estimated: boolean } {
  if (text.length <= EXACT_COUNT_LIMIT) return { tokens: tokenizer.count(text), estimated: false };
  const head = text.slice(0, SAMPLE);
  const tail = text.slice(text.length - SAMPLE);
  const sampled = tokenizer.count(head) + tokenizer.count(tail);
  return { tokens: Math.max(1, Math.round((sampled / (SAMPLE * 2)) * text.length)), estimated: true };
}

/** Formats the marker that stands for the tokens left out of a preview. */
export function truncationMarker(omittedTokens: number, estimated: boolean, note?: string): string {
  const count = `${estimated ? '~' : ''}${omittedTokens}`;
  return `\n…${count} tokens truncated…${note ? ` ${note}` : ''}\n`;
}

function snapHead(head: string): string {
  const cut = head.lastIndexOf('\n');
  return cut >= head.length * 0.75 ? head.slice(0, cut + 1) : head;
}

function snapTail(tail: string): string {
  const cut = tail.indexOf('\n');
  return cut >= 0 && cut < tail.length * 0.25 && cut < tail.length - 1 ? tail.slice(cut + 1) : tail;
}

/**
 * Fits `text` into `maxTokens` tokens: the text itself when it fits, else its head and tail around a marker
 * naming how many tokens were left out. Very long text is never tokenized in full.
 */
export function budgetOutput(text: string, maxTokens: number, tokenizer: Tokenizer, options: BudgetOptions = {}): BudgetedOutput {
  const limit = Math.max(0, Math.floor(maxTokens));
  if (text.length <= EXACT_COUNT_LIMIT * 4 && tokenizer.isWithin(text, limit)) {
    return { text, truncated: false, originalTokens: tokenizer.count(text), estimated: false, omittedTokens: 0 };
  }
  const { tokens: originalTokens, estimated } = estimateTokens(text, tokenizer);
  let available = limit - tokenizer.count(truncationMarker(originalTokens, estimated, options.note));
  if (available < 2) {
    const head = tokenizer.head(text, limit);
    return { text: head, truncated: true, originalTokens, estimated, omittedTokens: Math.max(0, originalTokens - tokenizer.count(head)) };
  }
  for (;;) {
    const headBudget = Math.ceil(available / 2);
    const head = snapHead(tokenizer.head(text, headBudget));
    const tail = snapTail(tokenizer.tail(text.slice(head.length), available - headBudget));
    const kept = tokenizer.count(head) + tokenizer.count(tail);
    const omittedTokens = Math.max(0, originalTokens - kept);
    const preview = head + truncationMarker(omittedTokens, estimated, options.note) + tail;
    const total = tokenizer.count(preview);
    if (total <= limit || available <= 2) {
      if (total <= limit) return { text: preview, truncated: true, originalTokens, estimated, omittedTokens };
      const cut = tokenizer.head(preview, limit);
      return { text: cut, truncated: true, originalTokens, estimated, omittedTokens };
    }
    available -= total - limit;
  }
}
