import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyPatch as applyUnifiedDiff } from 'diff';
import { createMemoryWorkspace, normalizeWorkspacePath, type Workspace } from '@toolhost/core';
import { applyPatch } from './apply-patch.js';
import type { DiffEntry } from './diff-entry.js';
import { PathLocks } from './path-locks.js';

// A small alphabet makes repeated lines (ambiguity) and near-misses common. No line has outer whitespace or
// typographic punctuation, so the looser matching passes find nothing the exact pass does not.
const WORDS = ['a', 'b', 'c', 'x = 1', 'return x', '}', ''];
const lineArb = fc.oneof(fc.constantFrom(...WORDS), fc.stringMatching(/^[a-z]{1,6}$/));

interface Edit {
  start: number;
  before: number;
  removed: number;
  after: number;
  added: string[];
}

const fileArb = fc.record({
  lines: fc.array(lineArb, { minLength: 0, maxLength: 25 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

const editsArb = fc.array(
  fc.record({
    start: fc.nat(30),
    before: fc.nat(2),
    removed: fc.nat(3),
    after: fc.nat(2),
    added: fc.array(lineArb, { maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 4 },
);

const goodPaths = ['new.txt', 'dir/new.txt', 'f0.txt', './nested/deep/x.txt', '/workspace/abs.txt'];
const badPaths = ['../x.txt', '/etc/x.txt', 'a/../../x.txt', 'bad\u0000name', 'C:\\x.txt', '\\\\srv\\share', '~/x', 'dir/../../x'];
const extraArb = fc.option(fc.record({ path: fc.constantFrom(...goodPaths, ...badPaths), lines: fc.array(lineArb, { maxLength: 3 }) }), {
  nil: undefined,
});

interface Op {
  kind: ' ' | '-' | '+';
  text: string;
}

/** Turns intended edits into chunks of ops, taken from the file in order and never overlapping. */
function chunksFor(lines: readonly string[], edits: readonly Edit[]): Op[][] {
  const chunks: Op[][] = [];
  let floor = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const start = Math.max(floor, Math.min(edit.start, lines.length));
    const before = Math.min(edit.before, lines.length - start);
    const removed = Math.min(edit.removed, lines.length - start - before);
    const after = Math.min(edit.after, lines.length - start - before - removed);
    const ops: Op[] = [
      ...lines.slice(start, start + before).map((text) => ({ kind: ' ' as const, text })),
      ...lines.slice(start + before, start + before + removed).map((text) => ({ kind: '-' as const, text })),
      ...edit.added.map((text) => ({ kind: '+' as const, text })),
      ...lines.slice(start + before + removed, start + before + removed + after).map((text) => ({ kind: ' ' as const, text })),
    ];
    if (!ops.some((op) => op.kind !== '+')) continue; // the property covers anchored/append insertions elsewhere
    chunks.push(ops);
    floor = start + before + removed + after;
  }
  return chunks;
}

/** The reference model: sequential unique exact matching, blank-trailer retry, endings kept, new lines take the majority. */
function reference(lines: readonly string[], eols: readonly string[], chunks: readonly Op[][]): string | undefined {
  const crlf = eols.filter((eol) => eol === '\r\n').length;
  const lf = eols.filter((eol) => eol === '\n').length;
  const majority = crlf > lf ? '\r\n' : '\n';
  const replacements: { start: number; ops: Op[] }[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    let ops = chunk;
    for (;;) {
      const pattern = ops.filter((op) => op.kind !== '+').map((op) => op.text);
      const hits: number[] = [];
      for (let start = cursor; start + pattern.length <= lines.length; start++) {
        if (pattern.every((text, i) => lines[start + i] === text)) hits.push(start);
      }
      if (hits.length > 1) return undefined;
      if (hits.length === 1) {
        replacements.push({ start: hits[0], ops });
        cursor = hits[0] + pattern.length;
        break;
      }
      const last = ops[ops.length - 1];
      if (last.kind === ' ' && last.text === '' && ops.slice(0, -1).some((op) => op.kind !== '+')) {
        ops = ops.slice(0, -1);
        continue;
      }
      return undefined;
    }
  }
  const out: { text: string; eol: string }[] = [];
  let index = 0;
  for (const { start, ops } of replacements) {
    for (; index < start; index++) out.push({ text: lines[index], eol: eols[index] });
    for (const op of ops) {
      if (op.kind === '+') out.push({ text: op.text, eol: majority });
      else if (op.kind === ' ') {
        out.push({ text: lines[index], eol: eols[index] });
        index++;
      } else index++;
    }
  }
  for (; index < lines.length; index++) out.push({ text: lines[index], eol: eols[index] });
  return out.map((line, i) => line.text + (i < out.length - 1 && line.eol === '' ? majority : line.eol)).join('');
}

function recording(inner: Workspace, writes: string[]): Workspace {
  return {
    ...inner,
    lstat: (path) => inner.lstat(path),
    stat: (path) => inner.stat(path),
    realpath: (path) => inner.realpath(path),
    readFile: (path) => inner.readFile(path),
    readdir: (path) => inner.readdir(path),
    writeFile: (path, data, options) => {
      writes.push(path);
      return inner.writeFile(path, data, options);
    },
    remove: (path) => {
      writes.push(path);
      return inner.remove(path);
    },
  };
}

describe('apply_patch property', () => {
  it('applies exactly as the reference model says, or rejects with every byte unchanged; never writes outside', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, editsArb, extraArb, async (file, edits, extra) => {
        // A last empty line without a newline does not exist as a line: such a file simply ends with a newline.
        const finalNewline = file.finalNewline || file.lines.at(-1) === '';
        const eols = file.lines.map((_, i) => (i === file.lines.length - 1 && !finalNewline ? '' : file.crlf ? '\r\n' : '\n'));
        const original = file.lines.map((text, i) => text + eols[i]).join('');
        const chunks = chunksFor(file.lines, edits);
        fc.pre(chunks.length > 0);
        const body = ['*** Update File: f0.txt', ...chunks.flatMap((ops) => ['@@', ...ops.map((op) => op.kind + op.text)])];
        if (extra) body.push(`*** Add File: ${extra.path}`, ...extra.lines.map((line) => `+${line}`));
        const text = ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

        const inner = createMemoryWorkspace({ 'f0.txt': original, 'dir/keep.txt': 'keep\n' });
        const writes: string[] = [];
        const result = await applyPatch(recording(inner, writes), text, { locks: new PathLocks() });

        for (const path of writes) {
          const checked = normalizeWorkspacePath('/workspace', path);
          expect(checked.ok && checked.relative === path).toBe(true);
        }
        const expected = reference(file.lines, eols, chunks);
        const extraPath = extra && normalizeWorkspacePath('/workspace', extra.path);
        const extraOk = !extra || (extraPath!.ok && extraPath!.relative !== 'f0.txt');
        const snapshot = inner.snapshot();
        if (expected === undefined || !extraOk) {
          expect(result.ok).toBe(false);
          expect(snapshot).toEqual({ 'f0.txt': original, 'dir/keep.txt': 'keep\n' });
          expect(writes).toEqual([]);
          if (extraPath && !extraPath.ok) {
            const operations = result.data?.operations as { code?: string }[];
            expect(operations.at(-1)?.code).toBe('outside_workspace');
          }
          return;
        }
        expect(result.ok).toBe(true);
        expect(snapshot['f0.txt']).toBe(expected);
        // The diff entry is a valid unified diff from the old to the new text (line endings aside).
        const entry = (result.data?.diff as DiffEntry[]).find((candidate) => candidate.path === 'f0.txt')!;
        const lf = (value: string) => value.replace(/\r\n/g, '\n');
        if (!entry.truncated) expect(entry.is_empty ? lf(original) : applyUnifiedDiff(lf(original), entry.content)).toBe(lf(expected));
        expect(entry.is_empty).toBe(expected === original);
        if (extra && extraPath?.ok) expect(snapshot[extraPath.relative]).toBe(extra.lines.map((line) => `${line}\n`).join(''));
        expect(Object.keys(snapshot).length).toBe(extra ? 3 : 2);
      }),
      { numRuns: 200, seed: 4242 },
    );
  });
});
