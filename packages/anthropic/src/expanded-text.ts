/** The tab width of the reference editor's views (Python's `str.expandtabs()` default). */
export const TAB_SIZE = 8;

/** Python's `str.expandtabs(8)`: each tab becomes the spaces up to the next multiple of 8 columns; LF and CR restart the count. */
export function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let column = 0;
  for (const character of text) {
    if (character === '\t') {
      const width = TAB_SIZE - (column % TAB_SIZE);
      out += ' '.repeat(width);
      column += width;
    } else {
      out += character;
      column = character === '\n' || character === '\r' ? 0 : column + 1;
    }
  }
  return out;
}

/** One raw character (a CRLF pair, a tab, a surrogate pair count as one) and the characters of the seen text it makes. */
export interface SeenUnit {
  rawStart: number;
  rawEnd: number;
  seenStart: number;
  seenEnd: number;
}

/**
 * Walks the raw text as the reference editor reads it (CRLF as LF) and, with `expand`, shows it (tabs as spaces),
 * calling `visit` with each raw character and what it becomes; stops when `visit` returns true.
 */
function walk(raw: string, expand: boolean, visit: (piece: string, unit: SeenUnit) => boolean | void): void {
  let seen = 0;
  let column = 0;
  for (let index = 0; index < raw.length;) {
    const code = raw.charCodeAt(index);
    let piece: string;
    let size = 1;
    if (code === 13 && raw.charCodeAt(index + 1) === 10) {
      piece = '\n';
      size = 2;
      column = 0;
    } else if (code === 9 && expand) {
      piece = ' '.repeat(TAB_SIZE - (column % TAB_SIZE));
      column += piece.length;
    } else {
      // A surrogate pair is one character, one column.
      if (code >= 0xd800 && code <= 0xdbff && index + 1 < raw.length) size = 2;
      piece = raw.slice(index, index + size);
      column = code === 10 || code === 13 ? 0 : column + 1;
    }
    if (visit(piece, { rawStart: index, rawEnd: index + size, seenStart: seen, seenEnd: seen + piece.length })) return;
    seen += piece.length;
    index += size;
  }
}

/** The raw text as the reference editor reads it (CRLF as LF) and, with `expand`, shows it (tabs as spaces). */
export function seenText(raw: string, expand: boolean): string {
  const pieces: string[] = [];
  walk(raw, expand, (piece) => {
    pieces.push(piece);
  });
  return pieces.join('');
}

/** The raw character that makes character `seenIndex` of {@link seenText}. */
export function unitAt(raw: string, expand: boolean, seenIndex: number): SeenUnit {
  let found: SeenUnit = { rawStart: raw.length, rawEnd: raw.length, seenStart: seenIndex, seenEnd: seenIndex };
  walk(raw, expand, (_piece, unit) => {
    if (unit.seenEnd <= seenIndex) return false;
    found = unit;
    return true;
  });
  return found;
}

/** The text with CRLF read as LF, as Python reads a text file (a lone CR stays). */
export function lfText(raw: string): string {
  return raw.replace(/\r\n/g, '\n');
}

/** Where the non-overlapping occurrences of `needle` start, scanning left to right as Python's `str.count` does. */
export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index >= 0; index = haystack.indexOf(needle, index + needle.length)) found.push(index);
  return found;
}

/** The 0-based line an offset of LF text is on. */
export function lineIndexAt(text: string, offset: number): number {
  let line = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}
