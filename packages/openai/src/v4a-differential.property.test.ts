import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyDiff } from '@openai/agents-core';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolHost, type ToolHost } from 'toolhost';
import { createAgentsEditor, type AgentsEditor } from './agents-editor.js';

/** Runs per property (LF files mostly, some CRLF, mixed or with a BOM): modest in CI; `V4A_FUZZ_RUNS=5000` for a stress run (with a random seed). */
const RUNS = Number(process.env.V4A_FUZZ_RUNS ?? 200);
const SEED = process.env.V4A_FUZZ_RUNS ? undefined : 20261206;
/** Time for one property: a real host writes and reads a file per run. */
const TIMEOUT = Math.max(30_000, RUNS * 25);

/** Few distinct texts, so lines repeat and differ only in whitespace, as real code does. */
const TEXTS = ['a', 'b', 'c', 'def f():', 'return 1', '}', 'x = 1'];
const lineText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TEXTS) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('', ' ', '  ', '\t'), fc.constantFrom(...TEXTS), fc.constantFrom('', ' ', '\t'))
      .map((p) => p.join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t') },
);

const BOM = '\uFEFF';

/** A file: mostly LF, some all-CRLF or mixed, some with a BOM, with or without a final line ending. */
const fileArbitrary = fc
  .record({
    lines: fc.array(lineText, { maxLength: 12 }),
    finalNewline: fc.boolean(),
    endings: fc.oneof({ weight: 6, arbitrary: fc.constant('lf') }, { weight: 1, arbitrary: fc.constantFrom('crlf', 'mixed') }),
    bom: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    mixedSeed: fc.nat(),
  })
  .map(({ lines, finalNewline, endings, bom, mixedSeed }) => {
    const ending = (index: number) => (endings === 'crlf' || (endings === 'mixed' && (mixedSeed >> index) % 2 === 1) ? '\r\n' : '\n');
    const count = lines.length === 0 ? 0 : finalNewline ? lines.length : lines.length - 1;
    const text = lines.map((line, index) => line + (index < count ? ending(index) : '')).join('');
    return { text: (bom ? BOM : '') + text, lines, bom };
  });

/** A line as the diff may quote it: itself, or with whitespace added or removed (which the fuzzy passes forgive). */
const quoted = (text: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.constantFrom(`${text} `, ` ${text}`, text.trim(), `${text}\t`) },
  );

/** One section over a region of the file: anchors, kept and removed lines (perturbed), added lines, End of File. */
function sectionArbitrary(lines: readonly string[], cursor: number): fc.Arbitrary<{ diff: string[]; next: number }> {
  const start = fc.integer({ min: Math.min(cursor, lines.length), max: lines.length });
  return start.chain((from) =>
    fc
      .tuple(
        fc.integer({ min: from, max: Math.min(lines.length, from + 4) }),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant<string[]>(['@@']) },
          { weight: 2, arbitrary: from > 0 ? quoted(lines[from - 1]).map((anchor) => [`@@ ${anchor}`]) : fc.constant(['@@']) },
          { weight: 1, arbitrary: fc.constantFrom(['@@ nothing like this'], ['@@', '@@'], ['@@ a', '@@ b'], [`@@ ${TEXTS[3]}`]) },
        ),
        fc.boolean(),
      )
      .chain(([to, anchors, eof]) =>
        fc
          .tuple(
            fc.tuple(...lines.slice(from, to).map((text) => fc.tuple(fc.constantFrom(' ', ' ', '-'), quoted(text)))),
            fc.array(fc.tuple(fc.nat({ max: to - from }), lineText), { maxLength: 3 }),
          )
          .map(([kept, added]) => {
            const body = kept.map(([kind, text]) => (kind === ' ' && text === '' ? '' : `${kind}${text}`));
            for (const [at, text] of added.sort((x, y) => y[0] - x[0])) body.splice(at, 0, `+${text}`);
            return { diff: [...anchors, ...body, ...(eof ? ['*** End of File'] : [])], next: to };
          }),
      ),
  );
}

/** A diff that mostly fits the file, with the slips a model makes. */
function coherentDiff(lines: readonly string[]): fc.Arbitrary<string[]> {
  return fc.integer({ min: 0, max: 3 }).chain((count) => {
    let sections: fc.Arbitrary<{ diff: string[]; next: number }> = fc.constant({ diff: [], next: 0 });
    for (let i = 0; i < count; i++)
      sections = sections.chain((sofar) =>
        sectionArbitrary(lines, sofar.next).map((section) => ({ diff: [...sofar.diff, ...section.diff], next: section.next })),
      );
    return sections.map((result) => result.diff);
  });
}

/** Lines of any V4A shape, in any order: what a confused model sends. */
const noiseLine = fc.oneof(
  lineText.map((text) => ` ${text}`),
  lineText.map((text) => `-${text}`),
  lineText.map((text) => `+${text}`),
  fc.constantFrom('@@', '@@ a', '@@ def f():', '', '*** End of File', '***', 'a', '@@a', '*** End of File ', '\t-a'),
);

function diffArbitrary(lines: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: coherentDiff([...lines, '']) }, { weight: 1, arbitrary: fc.array(noiseLine, { maxLength: 8 }) }),
      fc.constantFrom('\n', '\n', '', '\n\n', '\r\n'),
    )
    .map(([diff, end]) => (end === '\r\n' ? diff.map((line) => `${line}\r\n`).join('') : diff.join('\n') + (diff.length ? end : '')));
}

/** What the Agents SDK's applyDiff makes of it: the new text, or a refusal. */
function reference(input: string, diff: string, mode: 'default' | 'create'): { text: string } | { refused: string } {
  try {
    return { text: applyDiff(input, diff, mode) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe('V4A operations against @openai/agents-core applyDiff (differential)', () => {
  let workspace: string;
  let host: ToolHost;
  let editor: AgentsEditor;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-v4a-fuzz-'));
    host = createToolHost({ workspace, shellProfile: 'unix_like', verification: { threshold: Infinity } });
    editor = createAgentsEditor(host);
  });
  afterAll(async () => {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it(
    'update_file writes the bytes applyDiff returns, or both refuse',
    async () => {
      const path = join(workspace, 'target.txt');
      const seen = { changed: 0, unchanged: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(
          fileArbitrary.chain((file) => fc.tuple(fc.constant(file), diffArbitrary(file.lines))),
          async ([file, diff]) => {
            writeFileSync(path, file.text);
            const expected = reference(file.text, diff, 'default');
            const outcome = await editor.updateFile({ type: 'update_file', path: 'target.txt', diff });
            const written = readFileSync(path, 'utf8');
            if ('refused' in expected) {
              expect({ status: outcome.status, written }).toEqual({ status: 'failed', written: file.text });
              seen.refused++;
            } else {
              // Deviation: a BOM stays at the start of the file, where applyDiff moves or drops it with the first line.
              const text = file.bom ? BOM + expected.text.replace(BOM, '') : expected.text;
              expect({ status: outcome.status, written }).toEqual({ status: 'completed', written: text });
              seen[written === file.text ? 'unchanged' : 'changed']++;
            }
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
      // The generator reaches every outcome: edits that change the file, no-ops and refusals.
      expect(seen.changed).toBeGreaterThan(RUNS / 4);
      expect(seen.unchanged).toBeGreaterThan(0);
      expect(seen.refused).toBeGreaterThan(RUNS / 20);
      if (process.env.V4A_FUZZ_RUNS) console.log('V4A update outcomes', seen);
    },
    TIMEOUT,
  );

  it(
    'create_file writes the text applyDiff creates, or both refuse',
    async () => {
      const created = fc.array(
        fc.oneof(
          lineText.map((text) => `+${text}`),
          fc.constantFrom('+', '', 'a', ' +a', '@@'),
        ),
        { maxLength: 6 },
      );
      await fc.assert(
        fc.asyncProperty(created, fc.constantFrom('', '\n', '\n\n', '\r\n'), async (lines, end) => {
          const diff = end === '\r\n' ? lines.map((line) => `${line}\r\n`).join('') : lines.join('\n') + end;
          rmSync(join(workspace, 'new.txt'), { force: true });
          const expected = reference('', diff, 'create');
          const outcome = await editor.createFile({ type: 'create_file', path: 'new.txt', diff });
          if ('refused' in expected) expect(outcome.status).toBe('failed');
          else {
            expect(outcome.status).toBe('completed');
            expect(readFileSync(join(workspace, 'new.txt'), 'utf8')).toBe(expected.text);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    TIMEOUT,
  );
});
