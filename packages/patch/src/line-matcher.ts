import { LineArray, type SearchableLines } from './document-lines.js';
import type { TextLine } from './text-document.js';

/** How loosely a line is compared: exact, trailing whitespace ignored, all outer whitespace ignored, punctuation normalised. */
export const MATCH_PASSES = ['exact', 'trailing whitespace', 'whitespace', 'unicode punctuation'] as const;

/** One of {@link MATCH_PASSES}, by index. */
export type MatchPass = 0 | 1 | 2 | 3;

const PUNCTUATION: Record<string, string> = {};
for (const dash of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D') PUNCTUATION[dash] = '-';
for (const quote of '\u2018\u2019\u201A\u201B\u2032\uFF07') PUNCTUATION[quote] = "'";
for (const quote of '\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\uFF02') PUNCTUATION[quote] = '"';
for (const space of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') PUNCTUATION[space] = ' ';
PUNCTUATION['\u2026'] = '...';
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

/** Maps typographic dashes, quotes and non-breaking spaces to their ASCII forms, then trims. */
export function normalizePunctuation(text: string): string {
  return text.replace(PUNCTUATION_PATTERN, (char) => PUNCTUATION[char]).trim();
}

/** The comparison key of `text` at `pass`. */
export function lineKey(text: string, pass: MatchPass): string {
  switch (pass) {
    case 0:
      return text;
    case 1:
      return text.trimEnd();
    case 2:
      return text.trim();
    default:
      return normalizePunctuation(text);
  }
}

/** Exact searches made by scanning the text before the exact pass gets an index like the others. */
const SCANS_BEFORE_INDEX = 16;

/** Per pass: line positions by key; `wanted` limits the index to the keys the patch can ask for. */
interface PassIndex {
  positions: Map<string, number[]>;
  wanted: Set<string> | undefined;
}

/**
 * Finds line sequences in a file's lines. Exact matches are searched in the file's text itself, line strings made only
 * where a line is compared; looser passes use per-pass indexes built on first use, which, given the texts a patch
 * will look for, hold only those lines.
 */
export class LineMatcher {
  private readonly indexes: (PassIndex | undefined)[] = [];
  private exactScans = 0;

  readonly lines: SearchableLines;

  constructor(
    lines: SearchableLines | readonly TextLine[],
    private readonly wantedTexts?: readonly string[],
  ) {
    this.lines = Array.isArray(lines) ? new LineArray(lines) : (lines as SearchableLines);
  }

  private build(pass: MatchPass, wanted: Set<string> | undefined): PassIndex {
    const positions = new Map<string, number[]>();
    const lines = this.lines;
    for (let i = 0; i < lines.length; i++) {
      const key = lineKey(lines.textAt(i), pass);
      if (wanted && !wanted.has(key)) continue;
      const list = positions.get(key);
      if (list) list.push(i);
      else positions.set(key, [i]);
    }
    const index = { positions, wanted };
    this.indexes[pass] = index;
    return index;
  }

  /** The index of `pass`, complete for every key in `keys`. */
  private index(pass: MatchPass, keys: readonly string[]): Map<string, number[]> {
    let index = this.indexes[pass];
    if (!index) index = this.build(pass, this.wantedTexts && new Set(this.wantedTexts.map((text) => lineKey(text, pass))));
    if (index.wanted && keys.some((key) => !index!.wanted!.has(key))) index = this.build(pass, undefined);
    return index.positions;
  }

  /** Start indexes in `[from, to)` where `pattern` matches entirely inside that range, at `pass`; at most `limit`. */
  find(pattern: readonly string[], pass: MatchPass, from: number, to = this.lines.length, limit = Infinity): number[] {
    const found: number[] = [];
    if (pattern.length === 0) return found;
    const keys = pattern.map((text) => lineKey(text, pass));
    // A few exact searches scan the text; a patch of many chunks gets the index, as each scan may read the rest of the file.
    if (pass === 0 && !this.indexes[0] && this.exactScans++ < SCANS_BEFORE_INDEX) return this.findExact(keys, from, to, limit);
    const index = this.index(pass, keys);
    // Drive the search from the pattern line with the fewest occurrences.
    let pivot = -1;
    let positions: number[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      const list = index.get(keys[i]);
      if (!list) return found;
      if (!positions || list.length < positions.length) {
        positions = list;
        pivot = i;
      }
    }
    const lastStart = to - pattern.length;
    for (let p = lowerBound(positions!, from + pivot); p < positions!.length; p++) {
      const start = positions![p] - pivot;
      if (start > lastStart) break;
      if (this.matchesAt(keys, pass, start)) {
        found.push(start);
        if (found.length >= limit) break;
      }
    }
    return found;
  }

  /** {@link find} at the exact pass: the text is searched for the longest line of the pattern. */
  private findExact(keys: readonly string[], from: number, to: number, limit: number): number[] {
    const found: number[] = [];
    let pivot = 0;
    for (let i = 1; i < keys.length; i++) if (keys[i].length > keys[pivot].length) pivot = i;
    const lastStart = to - keys.length;
    for (const line of this.lines.linesEqualTo(keys[pivot], from + pivot)) {
      const start = line - pivot;
      if (start > lastStart) break;
      if (this.matchesAt(keys, 0, start)) {
        found.push(start);
        if (found.length >= limit) break;
      }
    }
    return found;
  }

  /** True when `pattern` matches at `start` at `pass`. */
  matchesAt(keys: readonly string[], pass: MatchPass, start: number): boolean {
    const lines = this.lines;
    if (start < 0 || start + keys.length > lines.length) return false;
    if (pass === 0) {
      for (let i = 0; i < keys.length; i++) if (!lines.equals(start + i, keys[i])) return false;
      return true;
    }
    for (let i = 0; i < keys.length; i++) if (lineKey(lines.textAt(start + i), pass) !== keys[i]) return false;
    return true;
  }

  /** The first line at or after `from` that matches `anchor`, trying each pass, then a substring match of the trimmed anchor. */
  findAnchor(anchor: string, from: number): number | undefined {
    for (const pass of [0, 1, 2, 3] as const) {
      const [hit] = this.find([anchor], pass, from, this.lines.length, 1);
      if (hit !== undefined) return hit;
    }
    const needle = normalizePunctuation(anchor);
    if (!needle) return undefined;
    for (let i = Math.max(0, from); i < this.lines.length; i++) if (normalizePunctuation(this.lines.textAt(i)).includes(needle)) return i;
    return undefined;
  }

  /**
   * The region most like `pattern` (most lines equal at the loosest pass, nearest to `near` on a tie), or undefined
   * when no line of the pattern occurs in the file.
   */
  closest(pattern: readonly string[], near: number): { start: number; matching: number } | undefined {
    const keys = pattern.map((text) => lineKey(text, 3));
    const index = this.index(3, keys);
    const votes = new Map<number, number>();
    for (let i = 0; i < pattern.length; i++) {
      const key = keys[i];
      if (key === '') continue;
      for (const position of index.get(key) ?? []) {
        const start = Math.max(0, Math.min(position - i, this.lines.length - 1));
        votes.set(start, (votes.get(start) ?? 0) + 1);
      }
    }
    let best: { start: number; matching: number } | undefined;
    for (const [start, count] of votes) {
      if (!best || count > best.matching || (count === best.matching && Math.abs(start - near) < Math.abs(best.start - near)))
        best = { start, matching: count };
    }
    return best;
  }
}

function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
