import { describe, expect, it } from 'vitest';
import { inferIndentStyle, mapAddedIndentation } from './indentation.js';
import type { ChunkLine } from './patch-syntax.js';

const ops = (...lines: string[]): ChunkLine[] =>
  lines.map((line, index) => ({ kind: line[0] as ChunkLine['kind'], text: line.slice(1), line: index + 1 }));
const fileLines = (...texts: string[]) => texts.map((text) => ({ text, eol: '\n' as const }));
const added = (mapped: readonly ChunkLine[]) => mapped.filter((op) => op.kind === '+').map((op) => op.text);

describe('inferIndentStyle', () => {
  it('tells tabs, two and four spaces apart, and nothing from unindented text', () => {
    expect(inferIndentStyle(['a:', '\tb', '\t\tc', '\td'])).toEqual({ kind: 'tab' });
    expect(inferIndentStyle(['a:', '  b:', '    c', '  d'])).toEqual({ kind: 'spaces', size: 2 });
    expect(inferIndentStyle(['a:', '    b:', '        c', '    d'])).toEqual({ kind: 'spaces', size: 4 });
    expect(inferIndentStyle(['a', '', 'b'])).toBeUndefined();
  });

  it('sizes spaces by the common increase, not by alignment lines, and by the widths when nothing indents deeper', () => {
    expect(inferIndentStyle(['f(a,', '      b)', 'if x:', '    y', '    if z:', '        w'])).toEqual({ kind: 'spaces', size: 4 });
    expect(inferIndentStyle(['        a', '    b'])).toEqual({ kind: 'spaces', size: 4 });
  });
});

describe('mapAddedIndentation', () => {
  const tabStyle = () => ({ kind: 'tab' as const });

  it('keeps a chunk whose indentation already agrees with the file', () => {
    const chunk = ops(' \tx = 1', '+   odd');
    expect(mapAddedIndentation(chunk, fileLines('\tx = 1'), tabStyle)).toBe(chunk);
  });

  it('maps an added line indented like an old line to that line’s indentation in the file', () => {
    const mapped = mapAddedIndentation(
      ops('     if True:', '-        return 1', '+        x = 1', '+    y = 2'),
      fileLines('\tif True:', '\t\treturn 1'),
      tabStyle,
    );
    expect(added(mapped)).toEqual(['\t\tx = 1', '\ty = 2']);
  });

  it('counts deeper and shallower lines in the patch’s levels and writes them in the file’s', () => {
    const mapped = mapAddedIndentation(ops('     if a:', '+        if b:', '+            c()', '+d()'), fileLines('  if a:'), () => ({
      kind: 'spaces',
      size: 2,
    }));
    expect(added(mapped)).toEqual(['    if b:', '      c()', 'd()']);
  });

  it('keeps alignment spaces past the last whole level', () => {
    const mapped = mapAddedIndentation(
      ops('     if x:', '         call(a,', '+              b)'),
      fileLines('\tif x:', '\t\tcall(a,'),
      tabStyle,
    );
    expect(added(mapped)).toEqual(['\t\t\t  b)']);
  });

  it('reads a single old line’s depth as a level only when it fits every width of the patch', () => {
    // 6 columns at two tabs: a 3-space level, or a 2-space level with the whole chunk shifted by one; 4 decides.
    const mapped = mapAddedIndentation(ops('-      x = 2', '+      x = 2', '+    z = 3'), fileLines('\t\tx = 2'), tabStyle);
    expect(added(mapped)).toEqual(['\t\tx = 2', '\tz = 3']);
    expect(added(mapAddedIndentation(ops('-      x = 2', '+         y'), fileLines('\t\tx = 2'), tabStyle))).toEqual(['\t\t\ty']);
  });

  it('follows a patch whose context lost a level of the file’s indentation', () => {
    const mapped = mapAddedIndentation(
      ops(' def f(self):', '-    pass', '+    return 1'),
      fileLines('    def f(self):', '        pass'),
      () => ({ kind: 'spaces', size: 4 }),
    );
    expect(added(mapped)).toEqual(['        return 1']);
  });

  it('prefers the nearest old line when the patch indents two file levels alike', () => {
    const mapped = mapAddedIndentation(ops(' value = 1', '-x', '+y'), fileLines('    value = 1', 'x'), () => ({ kind: 'spaces', size: 4 }));
    expect(added(mapped)).toEqual(['y']);
  });

  it('leaves blank added lines and chunks with only blank old lines alone', () => {
    expect(added(mapAddedIndentation(ops('     a', '+    ', '+    b'), fileLines('\ta'), tabStyle))).toEqual(['    ', '\tb']);
    const blankOnly = ops('    ', '+    b');
    expect(mapAddedIndentation(blankOnly, fileLines(''), tabStyle)).toBe(blankOnly);
  });
});
