import { countTokens, encode, decode } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/** Counts and cuts text in model tokens. */
export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
  /** True when `text` holds at most `limit` tokens; may stop early on long text. */
  isWithin(text: string, limit: number): boolean;
  /** The longest prefix of `text` holding at most `maxTokens` tokens. */
  head(text: string, maxTokens: number): string;
  /** The longest suffix of `text` holding at most `maxTokens` tokens. */
  tail(text: string, maxTokens: number): string;
}

const plainText = { disallowedSpecial: new Set<string>() } as const;

/** Pieces of at most this many characters are tokenized separately: BPE cost grows quadratically with run length. */
const PIECE = 2048;

/** Splits text into pieces, cutting after a newline (else a space) in each piece's second half where one exists. */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > PIECE) {
    const end = start + PIECE;
    let cut = text.lastIndexOf('\n', end - 1) + 1;
    if (cut <= start + PIECE / 2) cut = text.lastIndexOf(' ', end - 1) + 1;
    if (cut <= start + PIECE / 2) cut = end;
    // Never split a surrogate pair.
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    yield text.slice(start, cut);
    start = cut;
  }
  if (start < text.length) yield text.slice(start);
}

function encodeText(text: string): number[] {
  if (text.length <= PIECE) return encode(text, plainText as never);
  const tokens: number[] = [];
  for (const piece of pieces(text)) for (const token of encode(piece, plainText as never)) tokens.push(token);
  return tokens;
}

/**
 * Exact counts of recent long texts. A response is often counted twice in a row (by the tool that budgets it, then by
 * the runtime that checks every result against the budget); the second count of ~20 KB is then a lookup.
 */
const recentCounts = new Map<string, number>();
const REMEMBERED_MIN_CHARS = 8192;
const REMEMBERED_MAX_CHARS = 256 * 1024;
const REMEMBERED_TEXTS = 8;

function remember(text: string, tokens: number): void {
  if (text.length < REMEMBERED_MIN_CHARS || text.length > REMEMBERED_MAX_CHARS) return;
  recentCounts.delete(text);
  recentCounts.set(text, tokens);
  if (recentCounts.size > REMEMBERED_TEXTS) recentCounts.delete(recentCounts.keys().next().value as string);
}

function remembered(text: string): number | undefined {
  return text.length < REMEMBERED_MIN_CHARS || text.length > REMEMBERED_MAX_CHARS ? undefined : recentCounts.get(text);
}

/**
 * o200k_base's pre-tokenizer. Byte-pair merges never cross its pieces, and a piece split out of a text splits into
 * itself alone, so a text's count is the sum of its pieces' counts: counting piece by piece is exact (but for pieces
 * over LONG_PIECE characters, counted a little high).
 */
const SPLIT = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu');

/** Counts of recently seen short pieces: output repeats a small vocabulary of pieces, and a small map stays in cache. */
const pieceCounts = new Map<string, number>();
const CACHED_PIECE_CHARS = 48;
const CACHED_PIECES = 100_000;

/** A piece longer than this (an unbroken run of letters, of punctuation or of spaces) is counted in slices of this size. */
const LONG_PIECE = 1024;

/** Tokens added for each cut in a long piece: a slice can merge a little better than the whole run, never below its count. */
const SLICE_MARGIN = 2;

function countPiece(piece: string): number {
  if (piece.length > LONG_PIECE) {
    // Merging costs grow quadratically with a piece's length: slices bound it. Sliced, a run can count a token or two
    // fewer than whole, so each cut adds a margin: the count errs high (a budget is never exceeded), for such runs only.
    let total = 0;
    for (let start = 0; start < piece.length;) {
      let end = Math.min(piece.length, start + LONG_PIECE);
      const code = piece.charCodeAt(end - 1);
      if (end < piece.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
      total += countTokens(piece.slice(start, end), plainText as never);
      if (end < piece.length) total += SLICE_MARGIN;
      start = end;
    }
    return total;
  }
  if (piece.length > CACHED_PIECE_CHARS) return countTokens(piece, plainText as never);
  let count = pieceCounts.get(piece);
  if (count === undefined) {
    count = countTokens(piece, plainText as never);
    if (pieceCounts.size >= CACHED_PIECES) pieceCounts.clear();
    pieceCounts.set(piece, count);
  }
  return count;
}

/** Tokens of `text`, or -1 once they exceed `limit`. */
function countUpTo(text: string, limit: number): number {
  const known = remembered(text);
  if (known !== undefined) return known > limit ? -1 : known;
  let total = 0;
  for (const [piece] of text.matchAll(SPLIT)) {
    total += countPiece(piece);
    if (total > limit) return -1;
  }
  remember(text, total);
  return total;
}

function countText(text: string): number {
  return countUpTo(text, Number.POSITIVE_INFINITY);
}

function within(text: string, limit: number): boolean {
  // A token holds at least one UTF-8 byte, and a UTF-16 unit encodes to at most three.
  return text.length * 3 <= limit || countUpTo(text, limit) >= 0;
}

/** Characters per wanted token in the first window `head`/`tail` encode: enough for prose, twice too many for dense text. */
const WINDOW_CHARS_PER_TOKEN = 4.5;

/** The next window size: scaled by the characters per token just seen, with a margin, and at least doubled. */
function grownWindow(size: number, windowChars: number, tokens: number, wanted: number): number {
  const perToken = windowChars / Math.max(1, tokens);
  return Math.max(size * 2, Math.ceil(perToken * wanted * 1.25) + 64);
}

function decodedPrefix(text: string, tokens: number[], count: number): string {
  if (count <= 0) return '';
  if (count >= tokens.length) return text;
  let prefix = decode(tokens.slice(0, count));
  // A cut inside a multi-byte character decodes to U+FFFD: drop it so the prefix stays a true prefix.
  while (prefix.length > 0 && !text.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** The default tokenizer: o200k_base from gpt-tokenizer, special-token strings counted as plain text. */
export const gptTokenizer: Tokenizer = {
  name: 'o200k_base',
  count: (text) => (text.length === 0 ? 0 : countText(text)),
  isWithin: within,
  head(text, maxTokens) {
    if (maxTokens <= 0) return '';
    // Encode only a window around the cut, widened (by the characters per token seen so far) until it holds enough tokens.
    let size = maxTokens * WINDOW_CHARS_PER_TOKEN + 64;
    for (;;) {
      const window = text.slice(0, Math.min(text.length, size));
      const tokens = encodeText(window);
      if (tokens.length > maxTokens || window.length === text.length) return decodedPrefix(window, tokens, maxTokens);
      size = grownWindow(size, window.length, tokens.length, maxTokens);
    }
  },
  tail(text, maxTokens) {
    if (maxTokens <= 0) return '';
    let size = maxTokens * WINDOW_CHARS_PER_TOKEN + 64;
    for (;;) {
      const window = text.slice(Math.max(0, text.length - size));
      const tokens = encodeText(window);
      if (tokens.length > maxTokens || window.length === text.length) {
        if (tokens.length <= maxTokens) return window;
        let suffix = decode(tokens.slice(tokens.length - maxTokens));
        while (suffix.length > 0 && !window.endsWith(suffix)) suffix = suffix.slice(1);
        return suffix;
      }
      size = grownWindow(size, window.length, tokens.length, maxTokens);
    }
  },
};

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  // Fast path for ASCII-only text.
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? text.length : encoder.encode(text).length;
}

/** A tokenizer that counts one token per 4 UTF-8 bytes (rounded up); fast and dependency-free. */
export const approximateTokenizer: Tokenizer = {
  name: 'approximate-4-bytes',
  count: (text) => Math.ceil(utf8Length(text) / 4),
  isWithin: (text, limit) => text.length <= limit * 4 && Math.ceil(utf8Length(text) / 4) <= limit,
  head(text, maxTokens) {
    if (maxTokens <= 0) return '';
    let bytes = 0;
    let end = 0;
    const budget = maxTokens * 4;
    for (const ch of text) {
      const size = utf8Length(ch);
      if (bytes + size > budget) break;
      bytes += size;
      end += ch.length;
    }
    return text.slice(0, end);
  },
  tail(text, maxTokens) {
    if (maxTokens <= 0) return '';
    const budget = maxTokens * 4;
    let bytes = 0;
    let start = text.length;
    while (start > 0) {
      let step = 1;
      const code = text.charCodeAt(start - 1);
      if (code >= 0xdc00 && code <= 0xdfff && start >= 2) step = 2;
      const size = utf8Length(text.slice(start - step, start));
      if (bytes + size > budget) break;
      bytes += size;
      start -= step;
    }
    return text.slice(start);
  },
};
