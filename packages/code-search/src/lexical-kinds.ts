import { isWordBounded, mayBeDeclarationName, type OccurrenceKind } from './classify-occurrences.js';

/** A stretch of a file that is no code: a comment or a string (`text`), or one a lexical scan cannot read for certain. */
interface Span {
  start: number;
  end: number;
  region: 'text' | 'unknown';
}

/** Finds a file's comments and strings, in order, until one ends past `until` (an `unknown` span may run to the end). */
type Lexer = (text: string, until: number, spans: Span[]) => void;

const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKQUOTE = 96;
const HASH = 35;
const DOLLAR = 36;
const DOT = 46;

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 128;
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The position of the line break that ends the line holding `from` (the text's length on the last line). */
function lineEnd(text: string, from: number): number {
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

/** Adds a span, or an `unknown` one to the end of the text when `end` is -1; false when the scan must stop. */
function addSpan(spans: Span[], text: string, start: number, end: number, region: Span['region']): boolean {
  if (end < 0) {
    spans.push({ start, end: text.length, region: 'unknown' });
    return false;
  }
  spans.push({ start, end, region });
  return true;
}

/** Go: `//` and `/* *\/` comments, interpreted strings (one line), raw strings in backquotes, runes. */
const lexGo: Lexer = (text, until, spans) => {
  const special = /[/"`']/g;
  for (let index = 0; index <= until; ) {
    special.lastIndex = index;
    const found = special.exec(text);
    if (!found || found.index > until) return;
    index = found.index;
    const code = text.charCodeAt(index);
    let end: number;
    if (code === SLASH) {
      const next = text.charCodeAt(index + 1);
      if (next === SLASH) end = lineEnd(text, index);
      else if (next === STAR) {
        const close = text.indexOf('*/', index + 2);
        end = close < 0 ? -1 : close + 2;
      } else {
        index++;
        continue;
      }
    } else if (code === BACKQUOTE) {
      const close = text.indexOf('`', index + 1);
      end = close < 0 ? -1 : close + 1;
    } else end = endOfQuoted(text, index + 1, code, true);
    if (!addSpan(spans, text, index, end, 'text')) return;
    index = end;
  }
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
const lexRust: Lexer = (text, until, spans) => {
  const special = /[/"']/g;
  for (let index = 0; index <= until; ) {
    special.lastIndex = index;
    const found = special.exec(text);
    if (!found || found.index > until) return;
    index = found.index;
    const code = text.charCodeAt(index);
    let start = index;
    let end: number;
    if (code === SLASH) {
      const next = text.charCodeAt(index + 1);
      if (next === SLASH) end = lineEnd(text, index);
      else if (next === STAR) end = endOfRustBlockComment(text, index);
      else {
        index++;
        continue;
      }
    } else if (code === DOUBLE_QUOTE) {
      let hashes = 0;
      while (text.charCodeAt(index - hashes - 1) === HASH) hashes++;
      const raw = text.charCodeAt(index - hashes - 1) === 114; /* r */
      if (raw) {
        start = prefixStart(text, index - hashes, 'bcr', 2);
        // `r` must open the prefix's last letter: `rb"` is no prefix.
        if (start === index - hashes) start = index;
        const close = text.indexOf(`"${'#'.repeat(hashes)}`, index + 1);
        end = close < 0 ? -1 : close + 1 + hashes;
      } else {
        start = prefixStart(text, index, 'bc', 1);
        end = endOfQuoted(text, index + 1, DOUBLE_QUOTE, false);
      }
    } else {
      // `'`: a character literal holds one character or one escape and closes at once; else a lifetime or a label.
      if (text.charCodeAt(index + 1) === BACKSLASH) {
        const close = text.indexOf("'", index + 3);
        end = close < 0 || close - index > 12 ? -1 : close + 1;
      } else {
        const character = text.codePointAt(index + 1) ?? 0;
        const width = character > 0xffff ? 2 : 1;
        if (text.charCodeAt(index + 1 + width) !== SINGLE_QUOTE || character === NEWLINE || character === SINGLE_QUOTE) {
          index++;
          continue;
        }
        end = index + 2 + width;
      }
      start = prefixStart(text, index, 'b', 1);
    }
    if (!addSpan(spans, text, start, end, 'text')) return;
    index = end;
  }
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
const lexPython: Lexer = (text, until, spans) => {
  const special = /[#"']/g;
  for (let index = 0; index <= until; ) {
    special.lastIndex = index;
    const found = special.exec(text);
    if (!found || found.index > until) return;
    index = found.index;
    if (text.charCodeAt(index) === HASH) {
      const end = lineEnd(text, index);
      spans.push({ start: index, end, region: 'text' });
      index = end;
      continue;
    }
    const start = prefixStart(text, index, PYTHON_PREFIX_LETTERS, 2);
    const end = endOfPythonString(text, start, index);
    if (!addSpan(spans, text, start, end, /[fFtT]/.test(text.slice(start, index)) ? 'unknown' : 'text')) return;
    index = end;
  }
};

const LEXERS: Record<string, Lexer | undefined> = { go: lexGo, rust: lexRust, python: lexPython };

/**
 * Per grammar, words the parse never takes for an identifier, or not always: keywords, literals, Rust's primitive types,
 * Python's soft keywords and Python 2's statements.
 */
const NOT_ALWAYS_IDENTIFIERS: Record<string, ReadonlySet<string> | undefined> = {
  go: new Set(
    'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil iota _'.split(
      ' ',
    ),
  ),
  rust: new Set(
    (
      'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type union unsafe use where while yield macro_rules default gen raw safe try auto abstract become box do final macro override priv typeof unsized virtual ' +
      'bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f16 f32 f64 f128 _'
    ).split(' '),
  ),
  python: new Set(
    'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield print exec match case type _ __future__'.split(
      ' ',
    ),
  ),
};

/** True when the word before the `.` at `dot` starts with a digit: a number literal's. */
function followsNumber(text: string, dot: number): boolean {
  let index = dot - 1;
  while (index >= 0 && isWordCode(text.charCodeAt(index))) index--;
  return index < dot - 1 && isDigitCode(text.charCodeAt(index + 1));
}

/** True when the word at `start` follows `$name:`, as a Rust macro's fragment specifier (`$x: expr`), which the parse takes for no identifier. */
function isFragmentSpecifier(text: string, start: number): boolean {
  let index = start - 1;
  while (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9) index--;
  if (text.charCodeAt(index) !== 58 /* : */) return false;
  index--;
  while (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9) index--;
  while (index >= 0 && isWordCode(text.charCodeAt(index))) index--;
  return text.charCodeAt(index) === DOLLAR;
}

/** Grammars whose occurrences {@link lexicalKinds} can tell apart without a parse. */
export function hasLexicalKinds(grammar: string | undefined): boolean {
  return grammar !== undefined && LEXERS[grammar] !== undefined;
}

/**
 * Tells the `length`-long occurrences at `starts` (ascending) apart without a parse where a lexical scan is certain:
 * `text` in a comment or a string, or not a whole word; `usage` for an identifier in code that cannot name a declaration
 * ({@link mayBeDeclarationName}); undefined where only the parse can tell (a possible declaration name, a keyword, a
 * lifetime, an f-string's field). Go, Rust and Python; undefined throughout for other grammars.
 */
export function lexicalKinds(text: string, starts: readonly number[], length: number, grammar: string): Array<OccurrenceKind | undefined> {
  const lexer = LEXERS[grammar];
  if (!lexer || starts.length === 0) return starts.map(() => undefined);
  const spans: Span[] = [];
  // Through the last occurrence and what may follow it as a string prefix's rest (`r#"`, `b'`).
  let until = starts[starts.length - 1]! + length;
  while (text.charCodeAt(until) === HASH) until++;
  lexer(text, until, spans);
  const words = NOT_ALWAYS_IDENTIFIERS[grammar]!;
  const inTokenTree = grammar === 'rust' ? rustTokenTreeFlags(text, spans, starts) : undefined;
  let next = 0;
  return starts.map((start, at) => {
    if (!isWordBounded(text, start, length)) return 'text';
    while (next < spans.length && spans[next]!.end <= start) next++;
    const span = spans[next];
    if (span && span.start <= start) return span.region === 'text' ? 'text' : undefined;
    if (words.has(text.slice(start, start + length))) return undefined;
    const before = text.charCodeAt(start - 1);
    // A lifetime or label (`'a`), a macro's metavariable (`$name`), a raw identifier (`r#name`), Python 2's backquotes.
    if (before === SINGLE_QUOTE || before === DOLLAR || before === BACKQUOTE || (before === HASH && grammar === 'rust')) return undefined;
    if (grammar === 'rust' && (isFragmentSpecifier(text, start) || text.charCodeAt(start + length) === HASH)) return undefined;
    // A number's suffix or exponent after its point (`1.i`, `0x1.p4`, `0Xdead.cafep1`), or a field of a tuple field (`t.0.name`).
    if (before === DOT && followsNumber(text, start - 1)) return undefined;
    if (!inTokenTree?.[at] && declaresByItsLine(text, start, length, grammar)) return 'definition';
    return mayBeDeclarationName(text, start, length, grammar) ? undefined : 'usage';
  });
}

/**
 * What a line holds before a name that it certainly declares: an item or a declaration keyword that starts the line (after
 * visibility and qualifiers), so the name sits in no expression, type or parameter list. Rust's `let` also needs the
 * statement to start there and the pattern to be the name alone.
 */
const DECLARING_LINE_STARTS: Record<string, RegExp | undefined> = {
  go: /^[ \t]*(?:(?:func|type|var|const)[ \t]+|func[ \t]*\([^()]*\)[ \t]*)$/,
  rust: new RegExp(
    String.raw`^[ \t]*(?:(?:pub(?:[ \t]*\([^()]*\))?[ \t]+)?` +
      String.raw`(?:(?:(?:const|async|unsafe|default|extern(?:[ \t]+"[A-Za-z0-9-]*")?)[ \t]+)*fn|(?:(?:unsafe|auto)[ \t]+)*(?:struct|enum|union|trait|type|mod)|const|static(?:[ \t]+mut)?)[ \t]+` +
      String.raw`|macro_rules![ \t]*|let(?:[ \t]+mut)?[ \t]+)$`,
  ),
  python: /^[ \t]*(?:(?:async[ \t]+)?def|class)[ \t]+$/,
};

/** True when the name at `start` is declared by what starts its line ({@link DECLARING_LINE_STARTS}). */
function declaresByItsLine(text: string, start: number, length: number, grammar: string): boolean {
  const pattern = DECLARING_LINE_STARTS[grammar];
  if (!pattern) return false;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (start - lineStart > 200) return false;
  const head = text.slice(lineStart, start);
  const match = pattern.exec(head);
  if (!match) return false;
  // A method's name, not a function literal's result type (`func(r rune) bool {`).
  if (grammar === 'go' && head.trimEnd().endsWith(')') && text.charCodeAt(start + length) !== 40 /* ( */) return false;
  if (grammar === 'rust') {
    const keyword = /(const|static|let)(?:[ \t]+mut)?[ \t]+$/.exec(head)?.[1];
    const afterAt = skipSpaces(text, start + length);
    const after = text.charCodeAt(afterAt);
    // A path (`let a::B { x } = …`), not a name.
    if (after === 58 && text.charCodeAt(afterAt + 1) === 58) return false;
    // `const NAME: T = …;` and `static NAME: T;`, not a const generic parameter on a line of its own (`const N: usize,`).
    if ((keyword === 'const' || keyword === 'static') && (after !== 58 /* : */ || !text.slice(afterAt, lineEnd(text, afterAt)).includes(';'))) return false;
    // `let NAME`, `let NAME: T`, `let NAME = …`, `let NAME;`, after a finished statement.
    if (keyword === 'let') {
      if (after !== 58 && after !== 61 /* = */ && after !== 59 /* ; */) return false;
      if (after === 61 && text.charCodeAt(afterAt + 1) === 61) return false;
      const previous = previousNonSpace(text, lineStart - 1);
      if (previous >= 0 && !';{}'.includes(text[previous]!)) return false;
    }
  }
  return true;
}

function skipSpaces(text: string, index: number): number {
  while (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9) index++;
  return index;
}

/** The last position at or before `index` that holds no whitespace (line breaks included), or -1. */
function previousNonSpace(text: string, index: number): number {
  while (index >= 0 && /\s/.test(text[index]!)) index--;
  return index;
}

/**
 * Rust: for each of `starts` (ascending), whether it lies in a token tree, where the parse sees tokens and no items: the
 * brackets of a macro invocation (`name!(…)`, `name! {…}`), of a `macro_rules! name {…}` and of an attribute (`#[…]`).
 * Brackets after any `!` count (`!(a && b)` too): the answer errs towards a token tree, where no name counts as declared.
 */
function rustTokenTreeFlags(text: string, spans: readonly Span[], starts: readonly number[]): boolean[] {
  const flags: boolean[] = [];
  /** Per open bracket, whether it opens or lies in a token tree. */
  const open: boolean[] = [];
  let last = -1;
  let span = 0;
  let at = 0;
  for (let index = 0; at < starts.length; index++) {
    while (at < starts.length && starts[at]! <= index) flags[at++] = open.length > 0 && open[open.length - 1]!;
    if (index >= text.length) {
      while (at < starts.length) flags[at++] = open.length > 0 && open[open.length - 1]!;
      break;
    }
    while (span < spans.length && spans[span]!.end <= index) span++;
    if (span < spans.length && spans[span]!.start <= index) {
      index = spans[span]!.end - 1;
      continue;
    }
    const code = text.charCodeAt(index);
    if (code === 40 || code === 91 || code === 123) {
      let opensTree = open.length > 0 && open[open.length - 1]!;
      if (!opensTree && last >= 0) {
        const previous = text.charCodeAt(last);
        if (previous === 33 /* ! */ || previous === HASH) opensTree = true;
        else if (isWordCode(previous)) {
          // `macro_rules! name {`: a word after a `!`.
          let wordStart = last;
          while (wordStart > 0 && isWordCode(text.charCodeAt(wordStart - 1))) wordStart--;
          opensTree = text.charCodeAt(previousNonSpace(text, wordStart - 1)) === 33;
        }
      }
      open.push(opensTree);
    } else if (code === 41 || code === 93 || code === 125) open.pop();
    if (!(code === 32 || code === 9 || code === NEWLINE || code === CARRIAGE_RETURN)) last = index;
  }
  return flags;
}
