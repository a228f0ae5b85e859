import { isWordCode } from './classify-occurrences.js';

/** A stretch of a file that is no code: a comment or a string (`text`), or one a lexical scan cannot read for certain. */
export interface Span {
  start: number;
  end: number;
  region: 'text' | 'unknown';
}

/**
 * One language's comments and strings: `special` finds the characters that may open one, and `spanAt` reads the one opening
 * at such a character (`end` -1 when it cannot be read on for certain), or undefined when none opens there.
 */
interface Lexer {
  readonly special: RegExp;
  spanAt(text: string, index: number): { start: number; end: number; region: Span['region'] } | undefined;
}

const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKQUOTE = 96;
const HASH = 35;

export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The position of the line break that ends the line holding `from` (the text's length on the last line). */
export function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  const end = newline < 0 ? text.length : newline;
  return end > from && text.charCodeAt(end - 1) === CARRIAGE_RETURN ? end - 1 : end;
}

/**
 * The end (past the closing quote) of a quoted literal whose content starts at `from`; -1 when it does not close, or
 * (`oneLine`) a line break comes first. A backslash takes the next character with it (a line break too).
 */
function endOfQuoted(text: string, from: number, quote: number, oneLine: boolean): number {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) {
      index += text.charCodeAt(index + 1) === CARRIAGE_RETURN && text.charCodeAt(index + 2) === NEWLINE ? 2 : 1;
    } else if (code === quote) return index + 1;
    else if (oneLine && (code === NEWLINE || code === CARRIAGE_RETURN)) return -1;
  }
  return -1;
}

/**
 * The end of a `//` or `/* *\/` comment opening at `index` (-1 when a block comment does not close), or undefined when the
 * `/` there opens none. `endOfBlock`: where a block comment opening there ends (Rust's nest).
 */
function endOfSlashComment(text: string, index: number, endOfBlock: (text: string, start: number) => number): number | undefined {
  const next = text.charCodeAt(index + 1);
  if (next === SLASH) return lineEnd(text, index);
  return next === STAR ? endOfBlock(text, index) : undefined;
}

/** The end of a block comment opening at `start` that does not nest, or -1. */
function endOfBlockComment(text: string, start: number): number {
  const close = text.indexOf('*/', start + 2);
  return close < 0 ? -1 : close + 2;
}

/** Go: `//` and `/* *\/` comments, interpreted strings (one line), raw strings in backquotes, runes. */
const lexGo: Lexer = {
  special: /[/"`']/g,
  spanAt(text, index) {
    const code = text.charCodeAt(index);
    let end: number | undefined;
    if (code === SLASH) end = endOfSlashComment(text, index, endOfBlockComment);
    else if (code === BACKQUOTE) {
      const close = text.indexOf('`', index + 1);
      end = close < 0 ? -1 : close + 1;
    } else end = endOfQuoted(text, index + 1, code, true);
    return end === undefined ? undefined : { start: index, end, region: 'text' };
  },
};

/** The end of a Rust block comment opening at `start` (they nest), or -1. */
function endOfRustBlockComment(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (code === SLASH && next === STAR) {
      depth++;
      index++;
    } else if (code === STAR && next === SLASH) {
      depth--;
      index++;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** The first position of the word of 1 to `longest` characters before `index` when all are in `letters` and no word character comes before; else `index`. */
function prefixStart(text: string, index: number, letters: string, longest: number): number {
  let start = index;
  while (start > 0 && index - start < longest && letters.includes(text[start - 1]!)) start--;
  return start === index || (start > 0 && isWordCode(text.charCodeAt(start - 1))) ? index : start;
}

/**
 * Rust: `//` and nested `/* *\/` comments, strings with their prefixes (`b"`, `c"`, raw `r#"…"#`, `br`, `cr`), and
 * character literals (`'x'`, `'\n'`, `b'x'`), told from lifetimes and labels (`'a`).
 */
const lexRust: Lexer = {
  special: /[/"']/g,
  spanAt(text, index) {
    const code = text.charCodeAt(index);
    if (code === SLASH) {
      const end = endOfSlashComment(text, index, endOfRustBlockComment);
      return end === undefined ? undefined : { start: index, end, region: 'text' };
    }
    if (code === DOUBLE_QUOTE) {
      let hashes = 0;
      while (text.charCodeAt(index - hashes - 1) === HASH) hashes++;
      if (text.charCodeAt(index - hashes - 1) === 114 /* r */) {
        // `r` must open the prefix's last letter: `rb"` is no prefix.
        const start = prefixStart(text, index - hashes, 'bcr', 2);
        const close = text.indexOf(`"${'#'.repeat(hashes)}`, index + 1);
        return { start: start === index - hashes ? index : start, end: close < 0 ? -1 : close + 1 + hashes, region: 'text' };
      }
      return { start: prefixStart(text, index, 'bc', 1), end: endOfQuoted(text, index + 1, DOUBLE_QUOTE, false), region: 'text' };
    }
    // `'`: a character literal holds one character or one escape and closes at once; else a lifetime or a label.
    let end: number;
    if (text.charCodeAt(index + 1) === BACKSLASH) {
      const close = text.indexOf("'", index + 3);
      end = close < 0 || close - index > 12 ? -1 : close + 1;
    } else {
      const character = text.codePointAt(index + 1) ?? 0;
      const width = character > 0xffff ? 2 : 1;
      if (text.charCodeAt(index + 1 + width) !== SINGLE_QUOTE || character === NEWLINE || character === SINGLE_QUOTE) return undefined;
      end = index + 2 + width;
    }
    return { start: prefixStart(text, index, 'b', 1), end, region: 'text' };
  },
};

/** Python string prefixes' letters (`u`, `r`, `b`, `f`, `t` and their pairs). */
const PYTHON_PREFIX_LETTERS = 'rRbBuUfFtT';

/**
 * The end of a Python f-string's (or t-string's) content from `from`: replacement fields hold code with strings of their
 * own, nested fields in format specs. -1 when it does not close or cannot be read for certain.
 */
function endOfFormattedString(text: string, from: number, quote: number, triple: boolean): number {
  const closes = (index: number) =>
    text.charCodeAt(index) === quote && (!triple || (text.charCodeAt(index + 1) === quote && text.charCodeAt(index + 2) === quote));
  const close = triple ? 3 : 1;
  /** Scans literal text (the string's own, or a format spec) until the string closes (returns its end) or, in a spec, a `}`. */
  const literal = (start: number, inSpec: boolean): number => {
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === BACKSLASH) {
        const next = text.charCodeAt(index + 1);
        if (next === 123 || next === 125) return -1;
        index++;
      } else if (code === 123 /* { */) {
        if (!inSpec && text.charCodeAt(index + 1) === 123) index++;
        else {
          const fieldEnd = field(index + 1);
          if (fieldEnd < 0) return -1;
          index = fieldEnd - 1;
        }
      } else if (code === 125 /* } */) {
        if (inSpec) return index;
        if (text.charCodeAt(index + 1) !== 125) return -1;
        index++;
      } else if (closes(index)) return inSpec ? -1 : index + close;
      else if (!triple && (code === NEWLINE || code === CARRIAGE_RETURN)) return -1;
    }
    return -1;
  };
  /** Scans a replacement field's code from `start`; returns the position past its closing `}`. */
  const field = (start: number): number => {
    let depth = 0;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === SINGLE_QUOTE || code === DOUBLE_QUOTE) {
        const end = endOfPythonString(text, prefixStart(text, index, PYTHON_PREFIX_LETTERS, 2), index);
        if (end < 0) return -1;
        index = end - 1;
      } else if (code === HASH || code === BACKSLASH) return -1;
      else if (code === 40 || code === 91 || code === 123) depth++;
      else if (code === 41 || code === 93) depth--;
      else if (code === 125) {
        if (depth === 0) return index + 1;
        depth--;
      } else if (code === 58 /* : */ && depth === 0 && text.charCodeAt(index + 1) !== 61) {
        const specEnd = literal(index + 1, true);
        return specEnd < 0 ? -1 : specEnd + 1;
      }
    }
    return -1;
  };
  return literal(from, false);
}

/** The end of the Python string whose quote is at `quote` and whose prefix starts at `start`; -1 when it cannot be read for certain. */
function endOfPythonString(text: string, start: number, quote: number): number {
  const code = text.charCodeAt(quote);
  const triple = text.charCodeAt(quote + 1) === code && text.charCodeAt(quote + 2) === code;
  const prefix = text.slice(start, quote);
  const content = quote + (triple ? 3 : 1);
  if (/[fFtT]/.test(prefix)) return endOfFormattedString(text, content, code, triple);
  if (!triple) return endOfQuoted(text, content, code, true);
  for (let index = content; index < text.length; index++) {
    const at = text.charCodeAt(index);
    if (at === BACKSLASH) index++;
    else if (at === code && text.charCodeAt(index + 1) === code && text.charCodeAt(index + 2) === code) return index + 3;
  }
  return -1;
}

/** Python: `#` comments and strings with their prefixes; an f-string is read through but counts as unknown (its fields hold code). */
const lexPython: Lexer = {
  special: /[#"']/g,
  spanAt(text, index) {
    if (text.charCodeAt(index) === HASH) return { start: index, end: lineEnd(text, index), region: 'text' };
    const start = prefixStart(text, index, PYTHON_PREFIX_LETTERS, 2);
    return { start, end: endOfPythonString(text, start, index), region: /[fFtT]/.test(text.slice(start, index)) ? 'unknown' : 'text' };
  },
};

const LEXERS: Record<string, Lexer | undefined> = { go: lexGo, rust: lexRust, python: lexPython };

/** Grammars whose comments and strings {@link commentAndStringSpans} finds: Go, Rust and Python. */
export function hasSpanLexer(grammar: string | undefined): boolean {
  return grammar !== undefined && LEXERS[grammar] !== undefined;
}

/**
 * The comments and strings of a Go, Rust or Python file, in order, through the one holding `until` (and any that starts at
 * or before it); an `unknown` span, where the scan cannot read on for certain, runs to the end.
 */
export function commentAndStringSpans(text: string, grammar: string, until: number): Span[] {
  const spans: Span[] = [];
  const lexer = LEXERS[grammar];
  if (!lexer) return spans;
  const { special } = lexer;
  for (let index = 0; index <= until;) {
    special.lastIndex = index;
    const found = special.exec(text);
    if (!found || found.index > until) break;
    const span = lexer.spanAt(text, found.index);
    if (!span) {
      index = found.index + 1;
      continue;
    }
    if (span.end < 0) {
      spans.push({ start: span.start, end: text.length, region: 'unknown' });
      break;
    }
    spans.push(span);
    index = span.end;
  }
  return spans;
}
