import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMemoryWorkspace } from '@toolhost/core';
import { applyPatch } from './apply-patch.js';
import { PathLocks } from './path-locks.js';

// A Python program as a tree; every line is unique (numbered), so a chunk's context matches one place only.
type Statement = { kind: 'simple'; text: string } | { kind: 'block'; header: string; body: Statement[] };

type Shape = { block: false } | { block: true; body: Shape[] };
const shapeArb = fc.letrec<{ shape: Shape; body: Shape[] }>((tie) => ({
  shape: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<Shape>({ block: false }),
    fc.record({ block: fc.constant(true as const), body: tie('body') }),
  ),
  body: fc.array(tie('shape'), { minLength: 1, maxLength: 4 }),
}));
const programArb = fc.array(shapeArb.body, { minLength: 1, maxLength: 3 });

const HEADERS = ['if c{n}:', 'for i{n} in range(3):', 'while c{n}:', 'with open(p{n}) as f{n}:'];
const SIMPLES = ['x{n} = {n}', 'print(x{n}, "a  b")', 'y{n} = [{n}, {n}]', 'pass  # {n}'];

/** Numbers every line of the shapes into a program of functions. */
function build(functions: Shape[][]): Statement[] {
  let counter = 0;
  const statement = (shape: Shape): Statement => {
    const n = counter++;
    if (!shape.block) return { kind: 'simple', text: SIMPLES[n % SIMPLES.length].replaceAll('{n}', String(n)) };
    return { kind: 'block', header: HEADERS[n % HEADERS.length].replaceAll('{n}', String(n)), body: shape.body.map(statement) };
  };
  return functions.map((body) => ({ kind: 'block', header: `def f${counter++}():`, body: body.map(statement) }));
}

type Style = 'tab' | 'two' | 'four';
const STYLES: Style[] = ['tab', 'two', 'four'];
const unit = (style: Style) => (style === 'tab' ? '\t' : style === 'two' ? '  ' : '    ');

interface Line {
  depth: number;
  text: string;
}

function flatten(statements: readonly Statement[], depth = 0, out: Line[] = []): Line[] {
  for (const statement of statements) {
    if (statement.kind === 'simple') out.push({ depth, text: statement.text });
    else {
      out.push({ depth, text: statement.header });
      flatten(statement.body, depth + 1, out);
    }
  }
  return out;
}

const renderLine = (line: Line, style: Style) => unit(style).repeat(line.depth) + line.text;
const renderLines = (lines: readonly Line[], style: Style) => lines.map((line) => `${renderLine(line, style)}\n`).join('');

interface Edit {
  /** Which simple statement the edit replaces (modulo their count). */
  target: number;
  before: number;
  after: number;
  /** 'nest' wraps the statement in a new block, 'sibling' adds lines beside it, 'dedent' adds a line after its block. */
  kind: 'nest' | 'sibling' | 'dedent';
}
const editArb = fc.record({
  target: fc.nat(50),
  before: fc.nat(3),
  after: fc.nat(3),
  kind: fc.constantFrom<Edit['kind']>('nest', 'sibling', 'dedent'),
});

/** The program's lines before and after the edit, and the edit as a chunk of depth-annotated ops. */
function plan(lines: readonly Line[], edit: Edit): { after: Line[]; ops: { kind: ' ' | '-' | '+'; line: Line }[] } | undefined {
  const simple = lines.flatMap((line, index) => (line.depth > 0 && !line.text.endsWith(':') ? [index] : []));
  if (simple.length === 0) return undefined;
  const at = simple[edit.target % simple.length];
  const old = lines[at];
  let added: Line[];
  if (edit.kind === 'nest')
    added = [
      { depth: old.depth, text: 'if ready:' },
      { depth: old.depth + 1, text: 'z = 1' },
      { depth: old.depth + 1, text: old.text },
    ];
  else if (edit.kind === 'sibling')
    added = [
      { depth: old.depth, text: 'z = 2' },
      { depth: old.depth, text: old.text },
    ];
  else {
    // A new line after the statement, one level out, only where the statement ends its block and an outer level exists.
    const next = lines[at + 1];
    if (old.depth < 2 || (next && next.depth >= old.depth)) return undefined;
    added = [
      { depth: old.depth, text: old.text },
      { depth: old.depth - 1, text: 'z = 3' },
    ];
  }
  const start = Math.max(0, at - edit.before);
  const end = Math.min(lines.length, at + 1 + edit.after);
  const ops = [
    ...lines.slice(start, at).map((line) => ({ kind: ' ' as const, line })),
    { kind: '-' as const, line: old },
    ...added.map((line) => ({ kind: '+' as const, line })),
    ...lines.slice(at + 1, end).map((line) => ({ kind: ' ' as const, line })),
  ];
  return { after: [...lines.slice(0, at), ...added, ...lines.slice(at + 1)], ops };
}

/**
 * Python's own indentation rule, deterministically: indentation made only of the style's unit, one level deeper
 * after a line ending in ":", otherwise equal to an enclosing level.
 */
function indentationErrors(text: string, style: Style): string[] {
  const errors: string[] = [];
  const stack = [0];
  let opened = false;
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const indent = /^[ \t]*/.exec(line)![0];
    const levels = indent.length / unit(style).length;
    if (indent !== unit(style).repeat(levels))
      errors.push(`line ${index + 1}: indentation ${JSON.stringify(indent)} is not made of ${JSON.stringify(unit(style))}`);
    if (opened) {
      if (levels !== stack.at(-1)! + 1) errors.push(`line ${index + 1}: expected an indented block`);
      stack.push(levels);
    } else {
      while (stack.length > 1 && levels < stack.at(-1)!) stack.pop();
      if (levels !== stack.at(-1)) errors.push(`line ${index + 1}: unindent does not match any outer level`);
    }
    opened = line.trimEnd().endsWith(':');
  });
  return errors;
}

/** The patch text, its lines shifted by `shift` levels (models often drop or add a level to every line of a chunk). */
const patchOf = (ops: readonly { kind: string; line: Line }[], style: Style, shift: number) =>
  [
    '*** Begin Patch',
    '*** Update File: m.py',
    '@@',
    ...ops.map((op) => op.kind + renderLine({ ...op.line, depth: op.line.depth + shift }, style)),
    '*** End Patch',
  ].join('\n');

describe('apply_patch indentation', () => {
  it('a patch in another indentation style writes its added lines in the file’s style; the same style is applied verbatim', async () => {
    const compiled: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        programArb,
        editArb,
        fc.constantFrom(...STYLES),
        fc.constantFrom(...STYLES),
        fc.constantFrom(0, 0, -1, 1),
        async (shapes, edit, fileStyle, patchStyle, wantedShift) => {
          const lines = flatten(build(shapes));
          const planned = plan(lines, edit);
          fc.pre(planned !== undefined);
          const { after, ops } = planned!;
          // A shift of the whole chunk is told from the level size only when the old lines sit at two depths or more:
          // one line at two tabs written with 4 spaces is a 2-space level, or a 4-space level shifted out by one.
          const oldDepths = new Set(ops.filter((op) => op.kind !== '+').map((op) => op.line.depth));
          const shift = oldDepths.size < 2 ? 0 : Math.max(wantedShift, -Math.min(...ops.map((op) => op.line.depth)));
          const workspace = createMemoryWorkspace({ 'm.py': renderLines(lines, fileStyle) });
          const result = await applyPatch(workspace, patchOf(ops, patchStyle, shift), { locks: new PathLocks() });
          expect(result.ok, result.output).toBe(true);
          const written = workspace.snapshot()['m.py'];
          const shifted = (line: Line) => renderLine({ ...line, depth: line.depth + shift }, patchStyle);
          if (ops.every((op) => op.kind === '+' || shifted(op.line) === renderLine(op.line, fileStyle))) {
            // The patch matched exactly (the same style, or a shift that lands on the file's columns): written verbatim.
            const index = lines.findIndex((line) => line === ops.find((op) => op.kind !== '+')!.line);
            const replaced = ops.filter((op) => op.kind !== '+').length;
            const verbatim = [
              ...lines.slice(0, index).map((line) => renderLine(line, fileStyle)),
              ...ops.filter((op) => op.kind !== '-').map((op) => (op.kind === '+' ? shifted(op.line) : renderLine(op.line, fileStyle))),
              ...lines.slice(index + replaced).map((line) => renderLine(line, fileStyle)),
            ];
            expect(written).toBe(verbatim.map((line) => `${line}\n`).join(''));
            return;
          }
          expect(written).toBe(renderLines(after, fileStyle));
          expect(indentationErrors(written, fileStyle)).toEqual([]);
          if (compiled.length < 60) compiled.push(written);
        },
      ),
      { numRuns: 400, seed: 1919 },
    );
    // The real interpreter agrees on a sample.
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-indent-'));
    try {
      const files = compiled.map((text, index) => {
        const file = join(folder, `sample_${index}.py`);
        writeFileSync(file, text);
        return file;
      });
      expect(files.length).toBeGreaterThanOrEqual(30);
      execFileSync('python3', ['-m', 'py_compile', ...files], { stdio: 'pipe' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('the issue’s example: a space-indented patch on a tab-indented file compiles', async () => {
    const workspace = createMemoryWorkspace({ 'f.py': 'def f():\n\tif True:\n\t\treturn 1\n\treturn 2\n' });
    const result = await applyPatch(
      workspace,
      '*** Begin Patch\n*** Update File: f.py\n@@\n     if True:\n-        return 1\n+        x = 1\n+        return x\n*** End Patch',
      {
        locks: new PathLocks(),
      },
    );
    expect(result.ok).toBe(true);
    const written = workspace.snapshot()['f.py'];
    expect(written).toBe('def f():\n\tif True:\n\t\tx = 1\n\t\treturn x\n\treturn 2\n');
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-indent-'));
    try {
      writeFileSync(join(folder, 'f.py'), written);
      execFileSync('python3', ['-m', 'py_compile', join(folder, 'f.py')], { stdio: 'pipe' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('an exact match writes added lines verbatim, whatever their indentation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...STYLES),
        fc.array(fc.stringMatching(/^[ \t]{0,6}[a-z]{1,4}$/), { minLength: 1, maxLength: 4 }),
        async (style, added) => {
          const source = `def f():\n${unit(style)}a = 1\n${unit(style)}b = 2\n`;
          const workspace = createMemoryWorkspace({ 'm.py': source });
          const text = [
            '*** Begin Patch',
            '*** Update File: m.py',
            '@@',
            ` ${unit(style)}a = 1`,
            ...added.map((line) => `+${line}`),
            '*** End Patch',
          ].join('\n');
          const result = await applyPatch(workspace, text, { locks: new PathLocks() });
          expect(result.ok).toBe(true);
          expect(workspace.snapshot()['m.py']).toBe(
            `def f():\n${unit(style)}a = 1\n${added.map((line) => `${line}\n`).join('')}${unit(style)}b = 2\n`,
          );
        },
      ),
      { numRuns: 100, seed: 19 },
    );
  });

  it('a match that ignored only trailing whitespace or punctuation keeps the patch’s indentation', async () => {
    const workspace = createMemoryWorkspace({ 'm.py': 'def f():\n\ts = “a”   \n\treturn s\n' });
    const text = '*** Begin Patch\n*** Update File: m.py\n@@\n \ts = "a"\n+  t = 1\n*** End Patch';
    const result = await applyPatch(workspace, text, { locks: new PathLocks() });
    expect(result.ok).toBe(true);
    expect(workspace.snapshot()['m.py']).toBe('def f():\n\ts = “a”   \n  t = 1\n\treturn s\n');
  });
});
