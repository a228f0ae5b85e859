/** The tab width of the reference editor's views (Python's `str.expandtabs()` default). */
export const TAB_SIZE = 8;

/** The number of characters (code points, as Python counts them) of a text. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      pairs++;
      index++;
    }
  }
  return text.length - pairs;
}

/** One line's (no LF or CR in it) tabs expanded from its first column. */
function expandLine(line: string): string {
  const parts = line.split('\t');
  let out = parts[0];
  let column = codePoints(parts[0]);
  for (let index = 1; index < parts.length; index++) {
    const width = TAB_SIZE - (column % TAB_SIZE);
    out += ' '.repeat(width) + parts[index];
    column += width + codePoints(parts[index]);
  }
  return out;
}

/** Python's `str.expandtabs(8)`: each tab becomes the spaces up to the next multiple of 8 columns; LF and CR restart the count. */
export function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  return text
    .split('\n')
    .map((line) => (line.includes('\t') ? line.split('\r').map(expandLine).join('\r') : line))
    .join('\n');
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
  const read = lfText(raw);
  return expand ? expandTabs(read) : read;
}

/** The raw character that makes character `seenIndex` of {@link seenText}: found line by line, then within its line. */
export function unitAt(raw: string, expand: boolean, seenIndex: number): SeenUnit {
  let seen = 0;
  for (let lineStart = 0; ;) {
    const breakAt = raw.indexOf('\n', lineStart);
    const crlf = breakAt > lineStart && raw.charCodeAt(breakAt - 1) === 13;
    const bodyEnd = breakAt < 0 ? raw.length : crlf ? breakAt - 1 : breakAt;
    const body = raw.slice(lineStart, bodyEnd);
    const shownLength = expand ? expandTabs(body).length : body.length;
    if (seenIndex < seen + shownLength) {
      let found: SeenUnit | undefined;
      walk(body, expand, (_piece, unit) => {
        if (unit.seenEnd <= seenIndex - seen) return false;
        found = {
          rawStart: lineStart + unit.rawStart,
          rawEnd: lineStart + unit.rawEnd,
          seenStart: seen + unit.seenStart,
          seenEnd: seen + unit.seenEnd,
        };
        return true;
      });
      if (found) return found;
    }
    if (breakAt < 0) return { rawStart: raw.length, rawEnd: raw.length, seenStart: seenIndex, seenEnd: seenIndex };
    if (seenIndex === seen + shownLength) return { rawStart: bodyEnd, rawEnd: breakAt + 1, seenStart: seenIndex, seenEnd: seenIndex + 1 };
    seen += shownLength + 1;
    lineStart = breakAt + 1;
  }
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
