import type { Tree } from 'web-tree-sitter';
import type { SyntaxSpec } from './syntax-spec.js';

/** One identifier node of a parsed file: where it starts (UTF-16 offset), its text and whether it names a declaration. */
export interface IdentifierOccurrence {
  readonly start: number;
  readonly name: string;
  readonly definition: boolean;
}

interface Frame {
  readonly type: string;
  /** True when this node sits where a declaration's name goes (directly, or through wrappers). */
  readonly nameContext: boolean;
}

function fieldIn(fields: readonly string[], field: string | null): boolean {
  return field !== null && fields.includes(field);
}

/**
 * Lists every identifier node of `tree` in one cursor walk, classified exactly as {@link classifyOccurrences} would classify
 * an occurrence at its position: the deepest node spanning the range decides, and a name is a definition when a declaration
 * rule holds it (directly or through wrapper nodes).
 */
export function extractIdentifiers(spec: SyntaxSpec, tree: Tree, text: string): IdentifierOccurrence[] {
  const found: Array<{ start: number; end: number; definition: boolean } | undefined> = [];
  const cursor = tree.walk();
  const stack: Frame[] = [];
  try {
    for (;;) {
      const type = cursor.nodeType;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      const parent = stack.length > 0 ? stack[stack.length - 1] : undefined;
      let nameContext = false;
      if (parent) {
        const field = cursor.currentFieldName;
        const rule = spec.declarations[parent.type];
        if (rule && fieldIn(rule.fields, field) && (!rule.needsBody || hasBody(cursor))) nameContext = true;
        else {
          const wrapper = spec.wrappers[parent.type];
          nameContext = wrapper !== undefined && (wrapper === '*' || fieldIn(wrapper, field)) && parent.nameContext;
        }
      }
      // A descendant spanning exactly the same range as the last identifier is what descendantForIndex returns instead.
      const last = found.length > 0 ? found[found.length - 1] : undefined;
      if (last && last.start === start && last.end === end) found.pop();
      if (end > start) {
        const contextual = spec.contextualIdentifiers?.[type];
        const identifier =
          spec.identifiers.has(type) || (contextual !== undefined && parent !== undefined && contextual.includes(parent.type));
        if (identifier) found.push({ start, end, definition: nameContext });
      }
      if (cursor.gotoFirstChild()) {
        stack.push({ type, nameContext });
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return finish(found, text);
        stack.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

// The parent is the declaration; its `body` field decides needsBody rules. Checked on the node under the cursor's parent.
function hasBody(cursor: ReturnType<Tree['walk']>): boolean {
  const child = cursor.currentNode;
  return child.parent?.childForFieldName('body') != null;
}

function finish(
  found: ReadonlyArray<{ start: number; end: number; definition: boolean } | undefined>,
  text: string,
): IdentifierOccurrence[] {
  const out: IdentifierOccurrence[] = [];
  for (const item of found) if (item) out.push({ start: item.start, name: text.slice(item.start, item.end), definition: item.definition });
  return out;
}

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 128;
}

/** The distinct maximal runs of word characters (letters, digits, `_`, anything non-ASCII) of `text`, case-folded. */
export function foldedWordTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  let start = -1;
  for (let at = 0; at <= text.length; at++) {
    const word = at < text.length && isWordCode(text.charCodeAt(at));
    if (word && start === -1) start = at;
    else if (!word && start !== -1) {
      tokens.add(foldCase(text.slice(start, at)));
      start = -1;
    }
  }
  return tokens;
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

/**
 * Case-folds like a non-Unicode JavaScript `i` regular expression (the literal matcher's rule): each UTF-16 unit maps to
 * its single-unit upper case, except where that would map a non-ASCII unit to ASCII. Two strings match case-insensitively
 * exactly when their folds are equal.
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toUpperCase();
  let out = '';
  for (let at = 0; at < text.length; at++) {
    const unit = text[at];
    const upper = unit.toUpperCase();
    out += upper.length !== 1 || (unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? unit : upper;
  }
  return out;
}
