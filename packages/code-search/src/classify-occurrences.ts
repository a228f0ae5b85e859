import type { Node, Tree } from 'web-tree-sitter';
import type { SyntaxSpec } from './syntax-spec.js';

/** What one occurrence of the query is. */
export type OccurrenceKind = 'definition' | 'usage' | 'text';

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 128;
}

/** True when the occurrence could be a whole identifier: no letter, digit or `_` touches either end. */
export function isWordBounded(text: string, start: number, length: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : 32;
  const after = start + length < text.length ? text.charCodeAt(start + length) : 32;
  return !isWordCode(before) && !isWordCode(after);
}

/**
 * False when the occurrence at `start` cannot name a declaration whatever the parse says, read from the text before it
 * on the same line: right after a `"`, `//` or `/*` (in a string or a comment, in the grammars listed below), after a member access (`x.name`, `x .name`, but not a `...name` rest pattern), a `::`, an `=` (a
 * value: `x = name`, `x := name`, `a == name`; not in Python or Bash, see below) or a keyword followed by a value
 * (`return name`, `new name`, `go name()`). In the
 * grammars it answers for, a declaration's name follows a keyword, a type, punctuation that opens a list or a line
 * break, never these. (A name before `::` is no rule: Rust macro bodies such as `static $name: libc::c_void` parse with
 * the path's head as the declared name.) C and C++ are left to the parse (qualified definitions such as `Foo::name`,
 * and C++ headers read with the C grammar, whose error recovery can turn `this->name(…)` into a declaration). Searches
 * that only need definitions skip files where no occurrence may be one.
 */
export function mayBeDeclarationName(text: string, start: number, grammar: string): boolean {
  if (grammar === 'c' || grammar === 'cpp') return true;
  let before = start - 1;
  while (before >= 0 && (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9)) before--;
  if (before < 0) return true;
  const code = text.charCodeAt(before);
  const previous = before > 0 ? text.charCodeAt(before - 1) : 0;
  // Inside a string or a comment (or, in Python, after a floor division): `"name`, `// name`, `/* name`.
  if (code === 34 /* " */ && QUOTE_OPENS_NO_DECLARATION.has(grammar)) return false;
  if (previous === 47 /* / */ && (code === 47 || (code === 42 /* * */ && grammar !== 'python')) && SLASHES_OPEN_NO_DECLARATION.has(grammar)) return false;
  if (code === 46 /* . */) return previous === 46;
  if (code === 58 /* : */) return previous !== 58;
  // A value after an assignment or a comparison (`x = name`, `x := name`, `a == name`); Python's chained assignments
  // (`a = name = None`) declare every target, and Bash's `a=name` is one word.
  if (code === 61 /* = */) return grammar === 'bash' || grammar === 'python';
  if (!isWordCode(code)) return true;
  let wordStart = before;
  while (wordStart > 0 && isWordCode(text.charCodeAt(wordStart - 1))) wordStart--;
  return !VALUE_KEYWORDS[grammar]?.has(text.slice(wordStart, before + 1));
}

/**
 * Grammars where no declaration name follows a `"` on its line: the quote opens a string holding the name, or closes one
 * that nothing but an operator or punctuation may follow. Not JavaScript and TSX (JSX attributes follow `"`), nor Bash.
 */
const QUOTE_OPENS_NO_DECLARATION: ReadonlySet<string> = new Set(['go', 'rust', 'java', 'typescript', 'python']);
/** Grammars where `//` and `/*` open a comment (or sit in a string, or in Python divide): no declaration name follows. */
const SLASHES_OPEN_NO_DECLARATION: ReadonlySet<string> = new Set(['go', 'rust', 'java', 'javascript', 'typescript', 'tsx', 'python']);

const SCRIPT_VALUE_KEYWORDS = new Set(['return', 'await', 'yield', 'throw', 'new', 'typeof', 'instanceof']);
/** Per grammar, reserved words followed by a value, never by a name being declared (none can be a type name there). */
const VALUE_KEYWORDS: Record<string, ReadonlySet<string> | undefined> = {
  typescript: SCRIPT_VALUE_KEYWORDS,
  tsx: SCRIPT_VALUE_KEYWORDS,
  javascript: SCRIPT_VALUE_KEYWORDS,
  python: new Set(['return', 'await', 'yield', 'not', 'and', 'or', 'is', 'raise', 'assert', 'del']),
  go: new Set(['return', 'go', 'defer']),
  rust: new Set(['return']),
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
export function occurrencesNeedParse(text: string, starts: readonly number[], length: number, grammar: string | undefined, definitionsOnly: boolean): boolean {
  return starts.some((start) => isWordBounded(text, start, length) && (!definitionsOnly || !grammar || mayBeDeclarationName(text, start, grammar)));
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
