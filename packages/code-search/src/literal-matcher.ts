/** Finds a literal query in raw file bytes and in decoded text under the smart-case rule. */
export interface LiteralMatcher {
  readonly query: string;
  /** True when the query has an upper-case letter (then matching is case-sensitive). */
  readonly caseSensitive: boolean;
  /** True when the query could be an identifier, so a hit might be a definition or usage. */
  readonly identifierLike: boolean;
  /** Quick test on raw UTF-8 bytes; may say yes for a file without a match, never no for one with a match. */
  mayContain(bytes: Uint8Array): boolean;
  /** Start offsets (UTF-16 code units) of every non-overlapping occurrence in `text`. */
  find(text: string): number[];
}

interface BufferLike {
  indexOf(value: Uint8Array): number;
  latin1Slice?(start: number, end: number): string;
  toString(encoding: 'latin1'): string;
}
interface BufferConstructorLike {
  from(data: ArrayBufferLike, byteOffset: number, length: number): BufferLike;
}

const NodeBuffer = (globalThis as { Buffer?: BufferConstructorLike }).Buffer;
const encoder = new TextEncoder();
const utf8 = new TextDecoder();
const latin1 = new TextDecoder('latin1');
const IDENTIFIER_LIKE = /^[\p{L}\p{Nl}_$][\p{L}\p{N}\p{Mn}\p{Mc}_$]*$/u;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Tests whether a path holds `query` under smart case, as content does (case-sensitive with an upper-case letter). */
export function pathHolds(query: string, caseSensitive: boolean): (path: string) => boolean {
  if (caseSensitive) return (path) => path.includes(query);
  const lower = query.toLowerCase();
  return (path) => path.toLowerCase().includes(lower);
}

/** True when smart case makes `query` case-sensitive (it has an upper-case letter). */
export function isCaseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

/**
 * Creates a matcher. Case-insensitive matching follows JavaScript's non-Unicode `i` flag: letters fold only within ASCII or
 * only outside it, so the byte prefilter (ASCII folding over a Latin-1 view) never misses a match.
 */
export function createLiteralMatcher(query: string): LiteralMatcher {
  const caseSensitive = isCaseSensitive(query);
  const pattern = new RegExp(escapeRegExp(query), caseSensitive ? 'g' : 'gi');
  const probe = new RegExp(escapeRegExp(query), caseSensitive ? '' : 'i');
  const needle = encoder.encode(query);
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\u0000-\u007f]*$/.test(query);

  const mayContain = (bytes: Uint8Array): boolean => {
    if (caseSensitive) {
      if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) !== -1;
      return utf8.decode(bytes).includes(query);
    }
    if (ascii) {
      const view = NodeBuffer ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : latin1.decode(bytes);
      return probe.test(view);
    }
    return probe.test(utf8.decode(bytes));
  };

  const find = (text: string): number[] => {
    const starts: number[] = [];
    if (caseSensitive) {
      for (let at = text.indexOf(query); at !== -1; at = text.indexOf(query, at + query.length)) starts.push(at);
      return starts;
    }
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) starts.push(match.index);
    return starts;
  };

  return { query, caseSensitive, identifierLike: IDENTIFIER_LIKE.test(query), mayContain, find };
}
