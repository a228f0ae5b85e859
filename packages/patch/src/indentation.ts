import type { ChunkLine } from './patch-syntax.js';
import type { TextLine } from './text-document.js';

/** How a text indents one level: a tab, or a number of spaces. */
export type IndentStyle = { kind: 'tab' } | { kind: 'spaces'; size: number };

/** Columns a tab stands for when a tab-indented line also carries spaces (alignment). */
const TAB_COLUMNS = 8;

const LEADING_WHITESPACE = /^[ \t]*/;

/** The leading spaces and tabs of `text`. */
export function leadingWhitespace(text: string): string {
  return LEADING_WHITESPACE.exec(text)![0];
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** Width of an indentation in columns, a tab counting as `tabColumns`. */
function columns(indent: string, tabColumns: number): number {
  let width = 0;
  for (const char of indent) width += char === '\t' ? tabColumns : 1;
  return width;
}

/** Indentation units real code uses; a wider step between two lines is alignment, not a level. */
const LEVEL_SIZES = new Set([2, 3, 4, 8]);

/** What the lines of a text say about their indentation. */
interface IndentSurvey {
  tabs: number;
  spaces: number;
  /** The most common step between consecutive lines that is a plausible level (the smaller on a tie). */
  step: number | undefined;
  /** The greatest common divisor of the space-indented widths. */
  divisor: number;
}

function survey(texts: Iterable<string>, limit: number): IndentSurvey {
  let tabs = 0;
  let spaces = 0;
  let divisor = 0;
  let previous: number | undefined;
  const increases = new Map<number, number>();
  let seen = 0;
  for (const text of texts) {
    if (isBlank(text)) continue;
    const indent = leadingWhitespace(text);
    if (indent.startsWith('\t')) tabs++;
    else if (indent.startsWith(' ')) spaces++;
    const width = indent.startsWith('\t') ? undefined : columns(indent, 1);
    if (width !== undefined && width > 0) divisor = greatestCommonDivisor(divisor, width);
    if (width !== undefined && previous !== undefined && LEVEL_SIZES.has(width - previous))
      increases.set(width - previous, (increases.get(width - previous) ?? 0) + 1);
    previous = width ?? previous;
    if (indent !== '' && ++seen >= limit) break;
  }
  return { tabs, spaces, step: mostCommon(increases), divisor };
}

/**
 * The indentation style of a sequence of lines (in order): tab when more indented lines start with a tab than with
 * a space; otherwise spaces, sized by the most common step (2, 3, 4 or 8) between consecutive lines (the smaller on
 * a tie), or by the common divisor of the widths when no line steps in by such a size. Undefined when no line is
 * indented.
 */
export function inferIndentStyle(texts: Iterable<string>, limit = Infinity): IndentStyle | undefined {
  const found = survey(texts, limit);
  if (found.tabs === 0 && found.spaces === 0) return undefined;
  if (found.tabs > found.spaces) return { kind: 'tab' };
  return { kind: 'spaces', size: found.step ?? (found.divisor || 4) };
}

function greatestCommonDivisor(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** An indentation as whole levels of a style plus alignment spaces. */
interface Depth {
  levels: number;
  align: number;
}

function depthOf(indent: string, style: IndentStyle): Depth {
  if (style.kind === 'tab') {
    const width = columns(indent, TAB_COLUMNS);
    return { levels: Math.floor(width / TAB_COLUMNS), align: width % TAB_COLUMNS };
  }
  const width = columns(indent, style.size);
  return { levels: Math.floor(width / style.size), align: width % style.size };
}

function render(depth: Depth, style: IndentStyle): string {
  const levels = Math.max(0, depth.levels);
  return (style.kind === 'tab' ? '\t'.repeat(levels) : ' '.repeat(levels * style.size)) + ' '.repeat(depth.align);
}

/** One old line of a chunk (context or removed) and the file line it matched. */
interface KeyPair {
  /** Position of the old line among the chunk's lines. */
  position: number;
  patch: string;
  file: string;
}

/**
 * Rewrites the leading whitespace of a chunk's added lines into the file's indentation, for a chunk that matched
 * `matched` (the file lines its context and removed lines stand for) only when whitespace was ignored. The matched
 * lines are the key: an added line indented like an old line of the patch takes that file line's indentation (the
 * nearest such line, preceding on a tie); any other depth is counted in levels of the patch's style from the nearest
 * old line and rendered in the file's style (tabs stay tabs, two spaces stay two spaces). Returns `ops` itself when
 * the patch's indentation already agrees with the file's.
 */
export function mapAddedIndentation(
  ops: readonly ChunkLine[],
  matched: readonly TextLine[],
  fileStyle: () => IndentStyle | undefined,
): readonly ChunkLine[] {
  const keys: KeyPair[] = [];
  let next = 0;
  ops.forEach((op, position) => {
    if (op.kind === '+') return;
    const line = matched[next++];
    if (line && !isBlank(op.text) && !isBlank(line.text))
      keys.push({ position, patch: leadingWhitespace(op.text), file: leadingWhitespace(line.text) });
  });
  if (keys.length === 0 || keys.every((key) => key.patch === key.file)) return ops;
  if (!ops.some((op) => op.kind === '+' && !isBlank(op.text))) return ops;
  const localStyle = inferIndentStyle(keys.map((key) => key.file));
  const wholeStyle = fileStyle();
  // The local lines decide tabs or spaces; the whole file, when it agrees, decides how many spaces make a level.
  const patchSurvey = survey(
    ops.map((op) => op.text),
    Infinity,
  );
  const targetStyle =
    localStyle === undefined
      ? (wholeStyle ?? patchStyleOf(patchSurvey, keys, undefined))
      : localStyle.kind === wholeStyle?.kind
        ? wholeStyle
        : localStyle;
  const patchStyle = patchStyleOf(patchSurvey, keys, targetStyle);
  const byIndent = new Map<string, KeyPair[]>();
  for (const key of keys) {
    const list = byIndent.get(key.patch);
    if (list) list.push(key);
    else byIndent.set(key.patch, [key]);
  }
  return ops.map((op, position) => {
    if (op.kind !== '+' || isBlank(op.text)) return op;
    const indent = leadingWhitespace(op.text);
    const body = op.text.slice(indent.length);
    const same = nearest(byIndent.get(indent) ?? [], position);
    if (same) return { ...op, text: same.file + body };
    const reference = nearest(keys, position)!;
    const wanted = depthOf(indent, patchStyle);
    const levels = depthOf(reference.file, targetStyle).levels + wanted.levels - depthOf(reference.patch, patchStyle).levels;
    return { ...op, text: render({ levels, align: wanted.align }, targetStyle) + body };
  });
}

/**
 * The patch's indentation style. A space-indented patch's level is, by preference and when it is a plausible level
 * (2, 3, 4 or 8): the step between consecutive old lines that sit at different depths in the file (patch columns
 * per file level), the patch's own most common step, the ratio of old lines' columns to their file depth when it
 * divides every width of the patch, and finally the divisor of its widths.
 */
function patchStyleOf(found: IndentSurvey, keys: readonly KeyPair[], fileStyle: IndentStyle | undefined): IndentStyle {
  if (found.tabs > found.spaces) return { kind: 'tab' };
  if (fileStyle) {
    const depths = keys
      .filter((key) => !key.patch.includes('\t'))
      .map((key) => ({ columns: key.patch.length, levels: depthOf(key.file, fileStyle).levels }));
    const steps = new Map<number, number>();
    for (let i = 1; i < depths.length; i++) {
      const levels = depths[i].levels - depths[i - 1].levels;
      const size = levels === 0 ? 0 : (depths[i].columns - depths[i - 1].columns) / levels;
      if (LEVEL_SIZES.has(size)) steps.set(size, (steps.get(size) ?? 0) + 1);
    }
    const measured = mostCommon(steps);
    if (measured !== undefined) return { kind: 'spaces', size: measured };
    if (found.step !== undefined) return { kind: 'spaces', size: found.step };
    const ratios = new Map<number, number>();
    for (const depth of depths) {
      const size = depth.levels === 0 ? 0 : depth.columns / depth.levels;
      if (LEVEL_SIZES.has(size)) ratios.set(size, (ratios.get(size) ?? 0) + 1);
    }
    const ratio = mostCommon(ratios);
    // One old line's depth cannot tell a level from a shift of the whole chunk: trust it only if every width fits.
    if (ratio !== undefined && found.divisor % ratio === 0) return { kind: 'spaces', size: ratio };
  }
  return { kind: 'spaces', size: found.step ?? (found.divisor || 4) };
}

/** The most frequent key of `counts` (the smaller on a tie). */
function mostCommon(counts: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  let count = 0;
  for (const [value, times] of counts) {
    if (times > count || (times === count && value < best!)) {
      best = value;
      count = times;
    }
  }
  return best;
}

/** Of `keys` (in chunk order), the one nearest to `position`, the preceding one on a tie. */
function nearest(keys: readonly KeyPair[], position: number): KeyPair | undefined {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (keys[middle].position < position) low = middle + 1;
    else high = middle;
  }
  const before = keys[low - 1];
  const after = keys[low];
  if (!before) return after;
  if (!after) return before;
  return after.position - position < position - before.position ? after : before;
}
