import { isWordBounded, isWordCode, mayBeDeclarationName, skipSpacesBack, type OccurrenceKind } from './classify-occurrences.js';
import { bracketStates, declaresByItsLine } from './certain-declarations.js';
import { commentAndStringSpans, hasSpanLexer, isDigitCode } from './comment-string-spans.js';

const SINGLE_QUOTE = 39;
const BACKQUOTE = 96;
const HASH = 35;
const DOLLAR = 36;
const DOT = 46;

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
  let index = skipSpacesBack(text, start - 1, 0);
  if (text.charCodeAt(index) !== 58 /* : */) return false;
  index = skipSpacesBack(text, index - 1, 0);
  while (index >= 0 && isWordCode(text.charCodeAt(index))) index--;
  return text.charCodeAt(index) === DOLLAR;
}

/** Grammars whose occurrences {@link lexicalKinds} can tell apart without a parse. */
export function hasLexicalKinds(grammar: string | undefined): boolean {
  return hasSpanLexer(grammar);
}

/**
 * Tells the `length`-long occurrences at `starts` (ascending) apart without a parse where a lexical scan is certain:
 * `text` in a comment or a string, or not a whole word; `definition` for a name its line certainly declares
 * ({@link declaresByItsLine}, outside Rust's token trees); `usage` for an identifier in code that cannot name a declaration
 * ({@link mayBeDeclarationName}); undefined where only the parse can tell (a possible declaration name, a keyword, a
 * lifetime, an f-string's field). Go, Rust and Python; undefined throughout for other grammars. Wherever the grammar reads
 * the file without errors, each answer is the parse's.
 */
export function lexicalKinds(text: string, starts: readonly number[], length: number, grammar: string): Array<OccurrenceKind | undefined> {
  if (!hasSpanLexer(grammar) || starts.length === 0) return starts.map(() => undefined);
  // Through the last occurrence and what may follow it as a string prefix's rest (`r#"`, `b'`).
  let until = starts[starts.length - 1]! + length;
  while (text.charCodeAt(until) === HASH) until++;
  const spans = commentAndStringSpans(text, grammar, until);
  const words = NOT_ALWAYS_IDENTIFIERS[grammar]!;
  const brackets = grammar === 'go' ? undefined : bracketStates(text, spans, starts);
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
    const bracket = brackets?.[at];
    if (!(grammar === 'rust' && bracket?.inTokenTree) && declaresByItsLine(text, start, length, grammar, bracket?.depth ?? 0))
      return 'definition';
    return mayBeDeclarationName(text, start, length, grammar) ? undefined : 'usage';
  });
}
