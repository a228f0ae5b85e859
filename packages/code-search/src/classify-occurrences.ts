import type { Node, Tree } from 'web-tree-sitter';
import type { SyntaxSpec } from './syntax-spec.js';

/** What one occurrence of the query is. */
export type OccurrenceKind = 'definition' | 'usage' | 'text';

/** True for a letter, a digit, `_` or any non-ASCII code unit: what a word is made of. */
export function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 128;
}

/** True when the occurrence could be a whole identifier: no letter, digit or `_` touches either end. */
export function isWordBounded(text: string, start: number, length: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : 32;
  const after = start + length < text.length ? text.charCodeAt(start + length) : 32;
  return !isWordCode(before) && !isWordCode(after);
}

/**
 * False when the `length`-long occurrence at `start` cannot name a declaration whatever the parse says, read from its
 * line (and, in Python, the lines of an open bracket before it). Searches that only need definitions skip files where no
 * occurrence may be one. Ruled out:
 * - in a comment or a string: right after a `"`, `//` or `/*` (in the grammars listed below); later on the line than a
 *   line comment marker with no quote between (Go, Rust, Java, Python); in a Go string still open on its line;
 * - after a member access (`x.name`, `x .name`, but not a `...name` rest pattern) or a `::`;
 * - as a value: after an `=` (`x = name`, `x := name`, `a == name`; Bash's `a=name` is one word), or a keyword followed
 *   by a value (`return name`, `new name`, `go name()`, `match name`);
 * - in Go and Rust argument lists, Go expression lists and Rust `use` lists (see mayDeclareInList), and in Go's
 *   `T{name(x)}`; after Rust's `!` (but `macro_rules! name`) and in Rust type positions (see mayBeRustDeclarationName);
 * - in Python, everywhere but after `def`, `class`, `type` or punctuation that may start a target, and before `=`, `:`,
 *   `,`, a closing bracket, a comment or the end of the line (see mayBePythonDeclarationName).
 *
 * (A name before `::` is no rule: Rust macro bodies such as `static $name: libc::c_void` parse with the path's head as the
 * declared name.) C and C++ are left to the parse (qualified definitions such as `Foo::name`, and C++ headers read with
 * the C grammar, whose error recovery can turn `this->name(…)` into a declaration).
 * Checked against the parse of every identifier in the Go, Rust and Python standard libraries.
 */
export function mayBeDeclarationName(text: string, start: number, length: number, grammar: string): boolean {
  if (grammar === 'c' || grammar === 'cpp') return true;
  // The line, or its last LINE_WINDOW characters before the name (`cut`): rules that need its start then say nothing.
  const lineStart = lineStartNear(text, start);
  const cut = lineStart < 0;
  const windowStart = cut ? start - LINE_WINDOW : lineStart;
  if (inLineComment(text, windowStart, start, grammar) || (!cut && inOneLineString(text, lineStart, start, grammar))) return false;
  const before = skipSpacesBack(text, start - 1, windowStart);
  if (cut && before < windowStart) return true;
  if (grammar === 'python') return mayBePythonDeclarationName(text, before, windowStart, start + length);
  if (before < windowStart) return true;
  const code = text.charCodeAt(before);
  const previous = before > 0 ? text.charCodeAt(before - 1) : 0;
  // Inside a string or a comment: `"name`, `// name`, `/* name`.
  if (code === 34 /* " */ && QUOTE_OPENS_NO_DECLARATION.has(grammar)) return false;
  if (previous === 47 /* / */ && (code === 47 || code === 42) /* * */ && SLASHES_OPEN_NO_DECLARATION.has(grammar)) return false;
  if (code === 46 /* . */) return previous === 46;
  if (grammar === 'rust' && !mayBeRustDeclarationName(text, before, windowStart, start + length)) return false;
  if (code === 58 /* : */) return previous !== 58;
  // A value after an assignment or a comparison (`x = name`, `x := name`, `a == name`); Bash's `a=name` is one word.
  if (code === 61 /* = */) return grammar === 'bash';
  if (!isWordCode(code) && cut) return true;
  // Rust's `!name` negates; only `macro_rules! name` declares.
  if (code === 33 /* ! */ && grammar === 'rust') return wordBefore(text, before, windowStart) === 'macro_rules';
  if ((code === 40 /* ( */ || code === 44) /* , */ && (grammar === 'go' || grammar === 'rust'))
    return mayDeclareInList(text, before, windowStart, start + length, grammar);
  if (code === 123 /* { */) {
    // Rust's `use a::{name}` imports.
    if (grammar === 'rust') return !opensRustUseList(text, before);
    // Go's `T{name(x)}` and `if c {name(x)}` call: only an interface's method or a struct's field names a declaration there.
    if (grammar === 'go' && text.charCodeAt(start + length) === 40) {
      const word = wordBefore(text, before, windowStart);
      return word === '' || word === 'interface' || word === 'struct';
    }
  }
  if (!isWordCode(code)) return true;
  return !VALUE_KEYWORDS[grammar]?.has(wordEndingAt(text, before));
}

/** How much of a line before a name the rules read: past it, they read the line as cut (a minified file's lines). */
const LINE_WINDOW = 4096;

/** The start of the line holding `position`, or -1 when it lies over LINE_WINDOW characters before it. */
function lineStartNear(text: string, position: number): number {
  const from = Math.max(0, position - LINE_WINDOW);
  const newline = text.slice(from, position).lastIndexOf('\n');
  return newline >= 0 ? from + newline + 1 : from === 0 ? 0 : -1;
}

/** The rest of the line from `position`, or undefined when it runs over LINE_WINDOW characters. */
function lineRestNear(text: string, position: number): string | undefined {
  const rest = text.slice(position, position + LINE_WINDOW + 1);
  const newline = rest.indexOf('\n');
  if (newline >= 0) return rest.slice(0, newline);
  return rest.length <= LINE_WINDOW ? rest : undefined;
}

function isSpaceCode(code: number): boolean {
  return code === 32 || code === 9;
}

/** The last position at or before `index` that holds no space or tab, or lineStart - 1 when the line has none there. */
export function skipSpacesBack(text: string, index: number, lineStart: number): number {
  while (index >= lineStart && isSpaceCode(text.charCodeAt(index))) index--;
  return index;
}

/** The first position at or after `index` that holds no space or tab (the text's length when none does). */
export function skipSpacesForward(text: string, index: number): number {
  while (index < text.length && isSpaceCode(text.charCodeAt(index))) index++;
  return index;
}

/** True when the `{` at `brace` opens a Rust `use a::{…}` list. */
function opensRustUseList(text: string, brace: number): boolean {
  return text.charCodeAt(brace - 1) === 58 && text.charCodeAt(brace - 2) === 58;
}

/** The word (letters, digits, `_`) that ends at `end` (inclusive). */
function wordEndingAt(text: string, end: number): string {
  let wordStart = end;
  while (wordStart > 0 && isWordCode(text.charCodeAt(wordStart - 1))) wordStart--;
  return text.slice(wordStart, end + 1);
}

/** The word before `position` on its line, spaces skipped; '' when something else comes first. */
function wordBefore(text: string, position: number, lineStart: number): string {
  const end = skipSpacesBack(text, position - 1, lineStart);
  return end >= lineStart && isWordCode(text.charCodeAt(end)) ? wordEndingAt(text, end) : '';
}

/**
 * Line comments, and the quotes that may close a string holding the marker: `//` in Go, Rust and Java (not JavaScript,
 * whose regular expressions may hold `//`), `#` in Python.
 */
const LINE_COMMENT: Record<string, { marker: string; quotes: string } | undefined> = {
  go: { marker: '//', quotes: '"`' },
  rust: { marker: '//', quotes: '"' },
  java: { marker: '//', quotes: '"' },
  python: { marker: '#', quotes: '"\'' },
};

/**
 * True when a line comment marker comes earlier on the line with no quote (`"`, `'`, a backquote) and no `*` `/` between
 * it and `start`: either it opens a comment, or it sits in a string that is still open at `start`. Either way the name
 * is no code.
 */
function inLineComment(text: string, lineStart: number, start: number, grammar: string): boolean {
  const comment = LINE_COMMENT[grammar];
  if (comment === undefined) return false;
  const { marker, quotes } = comment;
  const found = text.slice(lineStart, start).lastIndexOf(marker);
  if (found < 0) return false;
  const at = lineStart + found;
  for (let index = at + marker.length; index < start; index++) {
    if (quotes.includes(text[index]!)) return false;
    if (text.charCodeAt(index) === 42 /* * */ && text.charCodeAt(index + 1) === 47 /* / */) return false;
  }
  return true;
}

/**
 * Go's interpreted strings (`"…"`) end on their line, so an odd count of unescaped `"` before `start` on its line puts it
 * in one; unless a backquote, a `'`, a `/*` or a `*\/` comes first (a raw string, a rune or a comment may span lines).
 * (Not Java: a text block may close on the line.)
 */
function inOneLineString(text: string, lineStart: number, start: number, grammar: string): boolean {
  if (grammar !== 'go') return false;
  let open = false;
  for (let index = lineStart; index < start; index++) {
    const code = text.charCodeAt(index);
    if (open) {
      if (code === 92 /* \\ */) index++;
      else if (code === 34) open = false;
      continue;
    }
    if (code === 96 || code === 39) return false;
    if (code === 47 /* / */ && text.charCodeAt(index + 1) === 42) return false;
    if (code === 42 /* * */ && text.charCodeAt(index + 1) === 47) return false;
    if (code === 34) open = true;
  }
  return open;
}

/**
 * Go and Rust, a name right after `(` or in a comma list, walking back over the list's words, commas and spaces:
 * - a list that opens with `(` declares only in Go's `var (`, `const (`, `type (` and in Rust's `let (` (or a nested
 *   pattern): after another word, or Rust's `!(`, it holds arguments, parameters or patterns that declare nothing here
 *   (`f(a, name(x))`, `Some(name)`, `assert!(name(x))`);
 * - in Go, a list met by an operator, a `.`, a closing bracket or a quote is an expression list (`f(&buf, name)`,
 *   `a, b = x, name`), never the identifier list of a declaration, unless a `:=` follows on the line;
 * - in Rust, `use a::{b, name}` imports.
 */
function mayDeclareInList(text: string, before: number, lineStart: number, end: number, grammar: string): boolean {
  let index = before;
  while (index >= lineStart) {
    const code = text.charCodeAt(index);
    if (code !== 44 && !isSpaceCode(code) && !isWordCode(code)) break;
    index--;
  }
  if (index < lineStart) return true;
  const code = text.charCodeAt(index);
  if (code === 40 /* ( */) {
    if (grammar === 'go') {
      const word = wordBefore(text, index, lineStart);
      return word === 'var' || word === 'const' || word === 'type';
    }
    // Rust: nested brackets answer as the outermost one (`let ((a, b), c)`, `assert!((name(x)))`).
    for (;;) {
      const word = wordBefore(text, index, lineStart);
      if (word !== '') return word === 'let';
      const previous = skipSpacesBack(text, index - 1, lineStart);
      if (previous < lineStart) return true;
      const outer = text.charCodeAt(previous);
      // Only a tuple pattern nested in a list (`let (a, (b, name))`) may follow anything but `let` or `(`.
      if (outer !== 40) return outer === 44; /* , */
      index = previous;
    }
  }
  if (grammar === 'rust') return !(code === 123 /* { */ && opensRustUseList(text, index));
  if (!GO_EXPRESSION_LIST_NEIGHBOURS.includes(text[index]!)) return true;
  // The parse takes any list before `:=` for a short variable declaration, even an invalid one (`a[0], name := 1, 2`).
  return lineRestNear(text, end)?.includes(':=') ?? true;
}

/** What a Rust declared name never follows: a type or a value comes there (`x: Vec<T>`, `-> Vec`, `<Vec<T>>`, `&Vec`, `[Vec<T>; 2]`, `=> name`). */
const RUST_TYPE_OR_VALUE_BEFORE = ':<>&[';
/** The Rust items that take generic parameters after their name (`struct Vec<T>`). */
const RUST_GENERIC_ITEMS: ReadonlySet<string> = new Set(['struct', 'enum', 'union', 'trait', 'type', 'fn']);

/**
 * Rust: false after `:`, `<`, `>`, `&` or `[`; after `&mut` or `*mut` (a reference or pointer type, not `let mut name`);
 * and before `<` unless the name follows an item keyword (only items take generic parameters).
 */
function mayBeRustDeclarationName(text: string, before: number, lineStart: number, end: number): boolean {
  if (before >= lineStart) {
    if (RUST_TYPE_OR_VALUE_BEFORE.includes(text[before]!)) return false;
    if (isWordCode(text.charCodeAt(before)) && wordEndingAt(text, before) === 'mut') {
      let previous = skipSpacesBack(text, before - 3, lineStart);
      // `&'a mut name`: past the lifetime.
      if (previous >= lineStart && isWordCode(text.charCodeAt(previous))) {
        const word = wordEndingAt(text, previous);
        if (text.charCodeAt(previous - word.length) === 39 /* ' */) previous = skipSpacesBack(text, previous - word.length - 1, lineStart);
      }
      if (previous >= lineStart && (text.charCodeAt(previous) === 38 /* & */ || text.charCodeAt(previous) === 42) /* * */) return false;
    }
  }
  // At the start of a line the keyword may end the line before (`pub struct\n    Vec<T>`).
  if (text.charCodeAt(skipSpacesForward(text, end)) === 60 /* < */)
    return before < lineStart || RUST_GENERIC_ITEMS.has(wordBefore(text, before + 1, lineStart));
  return true;
}

/** What may come right before a Go comma list that is an expression list, never a declaration's identifier list. */
const GO_EXPRESSION_LIST_NEIGHBOURS = '&.)]"`\'=+-!<>|^%[';

/** Words that a Python declaration name may follow on its line: `def name`, `class name`, `type name = ...`. */
const PYTHON_DECLARING_WORDS: ReadonlySet<string> = new Set(['def', 'class', 'type']);

/** How far back a Python name's enclosing list is looked for. */
const PYTHON_LIST_LOOKBACK = 4096;

/**
 * True when the Python name whose preceding character is at `before` sits in a bracketed list that cannot hold an
 * assignment target: walking back over words, commas and line breaks (no string, comment or operator on the way) to a
 * `(` or `[` that follows a word, a `)` or a `]` (arguments, parameters, bases, a subscript, `for (…) in`), or to the
 * `(` of `from module import (`. The line of that bracket must hold no `#` or quote before it, or the bracket could sit
 * in a comment or a string.
 */
function inPythonArgumentsOrImports(text: string, before: number): boolean {
  let index = before;
  const limit = Math.max(0, before - PYTHON_LIST_LOOKBACK);
  let crossedLine = false;
  for (; index >= limit; index--) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) crossedLine = true;
    else if (code !== 44 && !isSpaceCode(code) && !isWordCode(code)) break;
  }
  if (index < limit) return false;
  const bracket = text.charCodeAt(index);
  if (bracket !== 40 /* ( */ && bracket !== 91 /* [ */) return false;
  const bracketLineStart = lineStartNear(text, index);
  if (bracketLineStart < 0) return false;
  const head = text.slice(bracketLineStart, index);
  const headIsCode = !/[#'"]/.test(head);
  if (crossedLine && !headIsCode) return false;
  const word = wordBefore(text, index, bracketLineStart);
  if (word === 'import') return bracket === 40 && /^[ \t]*from[ \t]/.test(head) && headIsCode;
  if (word !== '') return true;
  const previous = head.trimEnd();
  return previous.endsWith(')') || previous.endsWith(']');
}

/** True when the line starting at `lineStart` continues the one before, which ends in a backslash (Python). */
export function followsJoinedLine(text: string, lineStart: number): boolean {
  return lineStart > 0 && /\\\r?\n$/.test(text.slice(Math.max(0, lineStart - 3), lineStart));
}

/** Operators a Python declaration name never follows (a `*` may: `*rest, = items`). */
const NOT_BEFORE_PYTHON_DECLARATION = '/+-%<>!~^|&@';
/** Characters before an `=` that make it a comparison or an assignment that takes a value (`==`, `!=`, `+=`, `:=`). */
const COMPOUND_ASSIGNMENT_OR_COMPARISON = '=!<>:+-*/%&|^@';

/**
 * Python declares a name after `def`, `class` or `type`, or as an assignment target: a target starts its statement or
 * follows `(`, `[`, `,`, `*`, `=`, `:` or `;`, never a word, a quote or a `.`, and is followed by `=` (not `==`), `:`, `,`,
 * `)`, `]`, a comment or the end of the line, never by `(`, `.`, `[` or an operator.
 */
function mayBePythonDeclarationName(text: string, before: number, lineStart: number, end: number): boolean {
  // After a backslash that joins the line to the one before, the name follows what ends that line (`x = \`, `def \`). A
  // line holding a `#` or a quote may end in a comment, whose backslash joins nothing; one holding nothing tells nothing
  // (as the line before a line from ripgrep).
  while (before < lineStart && followsJoinedLine(text, lineStart)) {
    const backslash = text.lastIndexOf('\\', lineStart - 1);
    const previousStart = text.lastIndexOf('\n', backslash - 1) + 1;
    if (backslash - previousStart > PYTHON_LIST_LOOKBACK || /[#'"]/.test(text.slice(previousStart, backslash))) return true;
    before = skipSpacesBack(text, backslash - 1, previousStart);
    if (before < previousStart) return true;
    lineStart = previousStart;
  }
  if (before >= lineStart) {
    const code = text.charCodeAt(before);
    if (isWordCode(code)) return PYTHON_DECLARING_WORDS.has(wordEndingAt(text, before));
    if (code === 34 /* " */ || code === 39 /* ' */ || code === 46 /* . */ || NOT_BEFORE_PYTHON_DECLARATION.includes(text[before]!))
      return false;
    // `a = name = None` declares both; `a == name`, `a += name`, `(a := name)` take a value.
    if (code === 61 /* = */ && before > lineStart && COMPOUND_ASSIGNMENT_OR_COMPARISON.includes(text[before - 1]!)) return false;
  }
  if (inPythonArgumentsOrImports(text, before >= lineStart ? before : lineStart - 1)) return false;
  const after = skipSpacesForward(text, end);
  if (after >= text.length) return true;
  const code = text.charCodeAt(after);
  if (code === 61 /* = */) return text.charCodeAt(after + 1) !== 61;
  return (
    code === 58 /* : */ ||
    code === 44 /* , */ ||
    code === 41 /* ) */ ||
    code === 93 /* ] */ ||
    code === 35 /* # */ ||
    code === 92 /* \ */ ||
    code === 10 ||
    code === 13
  );
}

/**
 * Grammars where no declaration name follows a `"` on its line: the quote opens a string holding the name, or closes one
 * that nothing but an operator or punctuation may follow. Not JavaScript and TSX (JSX attributes follow `"`), nor Bash.
 */
const QUOTE_OPENS_NO_DECLARATION: ReadonlySet<string> = new Set(['go', 'rust', 'java', 'typescript']);
/** Grammars where `//` and `/*` open a comment (or sit in a string): no declaration name follows. */
const SLASHES_OPEN_NO_DECLARATION: ReadonlySet<string> = new Set(['go', 'rust', 'java', 'javascript', 'typescript', 'tsx']);

const SCRIPT_VALUE_KEYWORDS = new Set(['return', 'await', 'yield', 'throw', 'new', 'typeof', 'instanceof']);
/** Per grammar, reserved words followed by a value, never by a name being declared (none can be a type name there). */
const VALUE_KEYWORDS: Record<string, ReadonlySet<string> | undefined> = {
  typescript: SCRIPT_VALUE_KEYWORDS,
  tsx: SCRIPT_VALUE_KEYWORDS,
  javascript: SCRIPT_VALUE_KEYWORDS,
  go: new Set(['return', 'go', 'defer']),
  rust: new Set(['return', 'match', 'if', 'while', 'in', 'as', 'for', 'impl', 'dyn', 'break', 'use', 'where', 'box', 'move']),
  java: new Set(['return', 'throw', 'new', 'instanceof']),
};

function isIdentifier(spec: SyntaxSpec, node: Node): boolean {
  if (spec.identifiers.has(node.type)) return true;
  const parents = spec.contextualIdentifiers?.[node.type];
  return parents !== undefined && node.parent !== null && parents.includes(node.parent.type);
}

function inFields(parent: Node, child: Node, fields: readonly string[]): boolean {
  for (const field of fields) {
    for (const candidate of parent.childrenForFieldName(field)) if (candidate.id === child.id) return true;
  }
  return false;
}

/** True when `node` is the name of a declaration, possibly nested in patterns or declarators. */
export function isDeclarationName(spec: SyntaxSpec, node: Node): boolean {
  let child = node;
  for (let parent = node.parent; parent; parent = parent.parent) {
    const rule = spec.declarations[parent.type];
    if (rule && inFields(parent, child, rule.fields) && (!rule.needsBody || parent.childForFieldName('body') !== null)) return true;
    const wrapper = spec.wrappers[parent.type];
    if (wrapper === undefined || (wrapper !== '*' && !inFields(parent, child, wrapper))) return false;
    child = parent;
  }
  return false;
}

/**
 * True when telling the occurrences at `starts` apart needs a parse: one is a whole word and, when only definitions can still
 * change the answer (`definitionsOnly`), one may be a declaration name. `grammar`: the file's grammar, if it has one.
 */
export function occurrencesNeedParse(
  text: string,
  starts: readonly number[],
  length: number,
  grammar: string | undefined,
  definitionsOnly: boolean,
): boolean {
  return starts.some(
    (start) => isWordBounded(text, start, length) && (!definitionsOnly || !grammar || mayBeDeclarationName(text, start, length, grammar)),
  );
}

/** Classifies each occurrence (UTF-16 start offsets of a `length`-long match) against a parsed tree. */
export function classifyOccurrences(spec: SyntaxSpec, tree: Tree, starts: readonly number[], length: number): OccurrenceKind[] {
  const root = tree.rootNode;
  return starts.map((start) => {
    const node = root.descendantForIndex(start, start + length);
    if (!node || node.startIndex !== start || node.endIndex !== start + length || !isIdentifier(spec, node)) return 'text';
    return isDeclarationName(spec, node) ? 'definition' : 'usage';
  });
}
