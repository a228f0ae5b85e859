import { followsJoinedLine, isWordCode, skipSpacesForward } from './classify-occurrences.js';
import { lineEnd, type Span } from './comment-string-spans.js';

const HASH = 35;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

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

/**
 * True when the name at `start` is declared by what starts its line ({@link DECLARING_LINE_STARTS}); or when it starts a
 * statement as Go's short variable declaration (`NAME := …`, `NAME, b := …`) or as a Python assignment's whole target
 * (`NAME = …`, `NAME: T = …`, `NAME: T`). `depth`: the brackets open at `start`.
 */
export function declaresByItsLine(text: string, start: number, length: number, grammar: string, depth: number): boolean {
  const pattern = DECLARING_LINE_STARTS[grammar];
  if (!pattern) return false;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (start - lineStart > 200) return false;
  const head = text.slice(lineStart, start);
  if (grammar === 'python' && depth === 0 && /^[ \t]*$/.test(head) && !followsJoinedLine(text, lineStart)) {
    const afterAt = skipSpacesForward(text, start + length);
    const after = text.charCodeAt(afterAt);
    if (after === 61 /* = */) return text.charCodeAt(afterAt + 1) !== 61;
    if (after === 58 /* : */) {
      const annotation = text.charCodeAt(skipSpacesForward(text, afterAt + 1));
      return (
        isWordCode(annotation) || annotation === 34 /* " */ || annotation === 39 /* ' */ || annotation === 40 /* ( */ || annotation === 91
      ); /* [ */
    }
    return false;
  }
  // Go: `NAME := …` and `NAME, b := …` start a statement (a short variable declaration).
  if (grammar === 'go' && /^[ \t]*$/.test(head))
    return /^[ \t]*(?:,[ \t]*[A-Za-z_]\w*[ \t]*)*:=/.test(text.slice(start + length, lineEnd(text, start)));
  const match = pattern.exec(head);
  if (!match) return false;
  // A method's name, not a function literal's result type (`func(r rune) bool {`).
  if (grammar === 'go' && head.trimEnd().endsWith(')') && text.charCodeAt(start + length) !== 40 /* ( */) return false;
  if (grammar === 'rust') {
    const keyword = /(const|static|let)(?:[ \t]+mut)?[ \t]+$/.exec(head)?.[1];
    const afterAt = skipSpacesForward(text, start + length);
    const after = text.charCodeAt(afterAt);
    // A path (`let a::B { x } = …`), not a name.
    if (after === 58 && text.charCodeAt(afterAt + 1) === 58) return false;
    // `const NAME: T = …;` and `static NAME: T;`, not a const generic parameter on a line of its own (`const N: usize,`).
    if (
      (keyword === 'const' || keyword === 'static') &&
      (after !== 58 /* : */ || !text.slice(afterAt, lineEnd(text, afterAt)).includes(';'))
    )
      return false;
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

/** The last position at or before `index` that holds no whitespace (line breaks included), or -1. */
function previousNonSpace(text: string, index: number): number {
  while (index >= 0 && /\s/.test(text[index]!)) index--;
  return index;
}

/** The brackets open at one position of a file. */
export interface BracketState {
  depth: number;
  /** Rust: in a token tree (see {@link bracketStates}). */
  inTokenTree: boolean;
}

/**
 * For each of `starts` (ascending), the brackets open there, comments and strings (`spans`) skipped; and whether it lies in
 * a Rust token tree, where the parse sees tokens and no items: the brackets of a macro invocation (`name!(…)`,
 * `name! {…}`), of a `macro_rules! name {…}` and of an attribute (`#[…]`). Brackets after any `!` count (`!(a && b)` too):
 * the answer errs towards a token tree, where no name counts as declared.
 */
export function bracketStates(text: string, spans: readonly Span[], starts: readonly number[]): BracketState[] {
  const flags: BracketState[] = [];
  /** Per open bracket, whether it opens or lies in a token tree. */
  const open: boolean[] = [];
  let last = -1;
  let span = 0;
  let at = 0;
  for (let index = 0; at < starts.length; index++) {
    while (at < starts.length && starts[at]! <= index)
      flags[at++] = { depth: open.length, inTokenTree: open.length > 0 && open[open.length - 1]! };
    if (index >= text.length) {
      while (at < starts.length) flags[at++] = { depth: open.length, inTokenTree: open.length > 0 && open[open.length - 1]! };
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
