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

/** What {@link budgetHeadTail} previews: a text whose middle may be missing from memory. */
export interface HeadTailSource {
  /** The start of the text; the preview's head is taken from it. */
  head: string;
  /** The end of the text after a gap that is not in memory; '' when `head` is the whole text (the tail then comes from its end). */
  tail: string;
  /** Tokens of the whole text, gap included. */
  totalTokens: number;
  /** True when `totalTokens` is an estimate. */
  estimated: boolean;
}

/** A preview made by {@link budgetHeadTail}. */
export interface HeadTailPreview {
  /** Head + marker + tail; the marker (with its note) alone when head and tail do not fit; never more than the budget. */
  text: string;
  /** Tokens left out. */
  omittedTokens: number;
  /** True when the note is in `text` whole (it is never cut). */
  noteShown: boolean;
}

/**
 * Head and tail of a text around a marker naming the tokens left out and `note` (e.g. where the complete text was
 * spooled), within `budget` tokens. The note is never cut: when head and tail leave it no room the preview is the marker
 * alone; when even that does not fit, the head of the text alone (without the note).
 */
export function budgetHeadTail(source: HeadTailSource, budget: number, tokenizer: Tokenizer, note?: string): HeadTailPreview {
  const limit = Math.max(0, Math.floor(budget));
  const gap = source.tail.length > 0;
  const { totalTokens, estimated } = source;
  const fallback = (): HeadTailPreview => {
    const marker = truncationMarker(totalTokens, estimated, note);
    if (tokenizer.isWithin(marker, limit)) return { text: marker, omittedTokens: totalTokens, noteShown: note !== undefined };
    const head = tokenizer.head(source.head, limit);
    return { text: head, omittedTokens: Math.max(0, totalTokens - tokenizer.count(head)), noteShown: false };
  };
  let available = limit - tokenizer.count(truncationMarker(totalTokens, estimated, note));
  if (available < 2) return fallback();
  for (;;) {
    const headLimit = Math.ceil(available / 2);
    const head = snapHead(tokenizer.head(source.head, headLimit));
    // With an estimated total the kept tokens need not be exact: the head's limit bounds its tokens, saving a count.
    const headTokens = estimated ? headLimit : tokenizer.count(head);
    const tailLimit = Math.max(0, available - headTokens);
    const tail = snapTail(tokenizer.tail(gap ? source.tail : source.head.slice(head.length), tailLimit));
    const kept = headTokens + (estimated ? tailLimit : tokenizer.count(tail));
    const omittedTokens = Math.max(gap ? 1 : 0, totalTokens - kept);
    const text = head + truncationMarker(omittedTokens, estimated, note) + tail;
    const total = tokenizer.count(text);
    if (total <= limit) return { text, omittedTokens, noteShown: note !== undefined };
    if (available <= 2) return fallback();
    available = Math.max(2, available - (total - limit));
  }
}

/**
 * Fits `text` into `maxTokens` tokens: the text itself when it fits, else its head and tail around a marker
 * naming how many tokens were left out (see {@link budgetHeadTail}). Very long text is never tokenized in full.
 */
export function budgetOutput(text: string, maxTokens: number, tokenizer: Tokenizer, options: BudgetOptions = {}): BudgetedOutput {
  const limit = Math.max(0, Math.floor(maxTokens));
  if (text.length <= EXACT_COUNT_LIMIT * 4 && tokenizer.isWithin(text, limit)) {
    return { text, truncated: false, originalTokens: tokenizer.count(text), estimated: false, omittedTokens: 0 };
  }
  const { tokens: originalTokens, estimated } = estimateTokens(text, tokenizer);
  const preview = budgetHeadTail({ head: text, tail: '', totalTokens: originalTokens, estimated }, limit, tokenizer, options.note);
  return { text: preview.text, truncated: true, originalTokens, estimated, omittedTokens: preview.omittedTokens };
}
