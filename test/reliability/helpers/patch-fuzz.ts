import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as fc from 'fast-check';
import type { ToolResult } from '@toolhost/core';
import { checksumTree, type Sandbox } from './sandbox.js';
import { describeResult, resultShapeProblems } from './result-shape.js';
import type { CallTool } from './hostile-corpus.js';

/** A workspace tree for one fuzz run. */
export interface FuzzTree {
  files: Record<string, string>;
  /** Create `link` → the sentinel folder outside. */
  outsideLink: boolean;
}

/** File names of fuzz trees. */
export const NAMES = ['a.txt', 'b.txt', 'src/c.ts', 'src/d.ts', 'docs/e.md', 'crlf.txt'];
const HOSTILE = [
  '../outside/secret.txt',
  '${OUTSIDE}/secret.txt',
  'link/secret.txt',
  'link/new.txt',
  'src/../../outside/dir/nested.txt',
  '..',
  '~/x',
  'x\u0000y',
];
/** The small line alphabet fuzz trees and patches draw from. */
export const LINES = [
  'hello',
  'sentinel line',
  'alpha',
  'beta',
  'gamma',
  '',
  '  indented',
  '\ttab',
  'ünïcode “quotes” — dash',
  'function f() {',
  '}',
  'hello world',
];

/** A line: mostly from {@link LINES}, sometimes any short string. */
export const lineArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...LINES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Random trees: a few files from a small line alphabet, with or without final newline and CRLF. */
export const treeArbitrary: fc.Arbitrary<FuzzTree> = fc.record({
  files: fc.dictionary(
    fc.constantFrom(...NAMES),
    fc.tuple(fc.array(lineArbitrary, { maxLength: 8 }), fc.boolean(), fc.boolean()).map(([lines, finalNewline, crlf]) => {
      const eol = crlf ? '\r\n' : '\n';
      return lines.join(eol) + (finalNewline && lines.length ? eol : '');
    }),
    { maxKeys: 5 },
  ),
  outsideLink: fc.boolean(),
});

/** A path: mostly a tree name or a new one, sometimes hostile, sometimes any short string. */
export const pathArbitrary = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NAMES, 'new.txt', 'src/new.ts') },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

/** A line of an update section: context, removal, addition, anchor or noise. */
export const changeLineArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(' ', '-', '+'), lineArbitrary).map(([prefix, line]) => prefix + line) },
  { weight: 2, arbitrary: fc.constantFrom('@@', '@@ hello', '@@ function f() {', '*** End of File') },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const operationArbitrary = fc.oneof(
  fc
    .tuple(pathArbitrary, fc.array(lineArbitrary, { maxLength: 4 }))
    .map(([path, lines]) => [`*** Add File: ${path}`, ...lines.map((line) => `+${line}`)]),
  pathArbitrary.map((path) => [`*** Delete File: ${path}`]),
  fc
    .tuple(pathArbitrary, fc.option(pathArbitrary, { nil: undefined }), fc.array(changeLineArbitrary, { maxLength: 8 }))
    .map(([path, move, lines]) => [`*** Update File: ${path}`, ...(move === undefined ? [] : [`*** Move to: ${move}`]), ...lines]),
);

/** Operations that fit the tree: edits of existing lines, deletions, moves and additions of new files. */
function coherentOperation(tree: FuzzTree): fc.Arbitrary<string[]> {
  const existing = Object.keys(tree.files);
  const fresh = fc.constantFrom('new.txt', 'src/new.ts', 'fresh/dir/f.txt');
  const options: fc.Arbitrary<string[]>[] = [
    fc
      .tuple(fresh, fc.array(lineArbitrary, { minLength: 1, maxLength: 4 }))
      .map(([path, lines]) => [`*** Add File: ${path}`, ...lines.map((line) => `+${line}`)]),
  ];
  if (existing.length) {
    const edit = fc.constantFrom(...existing).chain((path) => {
      const lines = tree.files[path]!.split('\n').map((line) => line.replace(/\r$/, ''));
      return fc
        .tuple(fc.nat({ max: Math.max(0, lines.length - 1) }), lineArbitrary, fc.option(fresh, { nil: undefined }), fc.boolean())
        .map(([index, replacement, move, anchored]) => [
          `*** Update File: ${path}`,
          ...(move === undefined ? [] : [`*** Move to: ${move}`]),
          anchored && index > 0 ? `@@ ${lines[index - 1]}` : '@@',
          `-${lines[index] ?? ''}`,
          `+${replacement}`,
        ]);
    });
    options.push(
      edit,
      edit,
      fc.constantFrom(...existing).map((path) => [`*** Delete File: ${path}`]),
    );
  }
  return fc.oneof(...options);
}

/** Random patch text for a tree: mostly grammar-shaped (coherent edits mixed with hostile or damaged ones), sometimes noise. */
export function patchArbitrary(tree: FuzzTree): fc.Arbitrary<string> {
  const operation = fc.oneof({ weight: 6, arbitrary: coherentOperation(tree) }, { weight: 2, arbitrary: operationArbitrary });
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .tuple(fc.array(operation, { minLength: 1, maxLength: 4 }), fc.nat(19), fc.boolean())
        .map(([operations, frame, heredoc]) => {
          const body =
            [...(frame !== 1 ? ['*** Begin Patch'] : []), ...operations.flat(), ...(frame !== 2 ? ['*** End Patch'] : [])].join('\n') +
            '\n';
          return heredoc && frame > 15 ? `apply_patch <<'EOF'\n${body}EOF\n` : body;
        }),
    },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }).map((text) => `*** Begin Patch\n${text}\n*** End Patch\n`),
    },
  );
}

/** A tree with a patch for it. */
export const fuzzCaseArbitrary: fc.Arbitrary<[FuzzTree, string]> = treeArbitrary.chain((tree) =>
  patchArbitrary(tree).map((patch) => [tree, patch] as [FuzzTree, string]),
);

/** Writes a fuzz tree into the (emptied) workspace. */
export function writeFuzzTree(sandbox: Sandbox, tree: FuzzTree): void {
  sandbox.resetWorkspace();
  for (const [path, text] of Object.entries(tree.files)) {
    const full = join(sandbox.workspace, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  if (tree.outsideLink) symlinkSync(sandbox.outside, join(sandbox.workspace, 'link'));
}

/** Totals of a fuzz run. */
export interface FuzzSummary {
  runs: number;
  accepted: number;
  rejected: number;
  /** Description of the first counterexample, if any. */
  failure?: string;
  outsideChanged: boolean;
  /** Bytes outside the workspace changed by the first escaping run (0 when none escaped). */
  bytesOutside: number;
}

/**
 * Throws when a fuzzed call's result is malformed or an internal_error, or when bytes outside the workspace changed
 * (recorded in `summary`, and the outside tree restored for the next run).
 */
export function checkFuzzedResult(result: ToolResult, sandbox: Sandbox, sentinel: string, summary: FuzzSummary): void {
  const problems = resultShapeProblems(result);
  if (problems.length) throw new Error(`malformed result: ${problems.join('; ')}`);
  if (result.error?.code === 'internal_error') throw new Error(`internal_error: ${describeResult(result)}`);
  if (sandbox.checksumOutside() !== sentinel) {
    summary.outsideChanged = true;
    summary.bytesOutside += sandbox.bytesChangedOutside();
    const listing = sandbox.listOutside();
    sandbox.restoreOutside();
    throw new Error(`bytes outside the workspace changed (${describeResult(result)}); outside now: ${listing.join(', ')}`);
  }
}

/**
 * fast-check property: for any tree and patch text, apply_patch never throws, returns a well-formed result without
 * internal_error, never changes a byte outside, and a rejected patch leaves every workspace byte as it was.
 */
export async function runPatchFuzz(call: CallTool, sandbox: Sandbox, numRuns: number, seed?: number): Promise<FuzzSummary> {
  const sentinel = sandbox.checksumOutside();
  const summary: FuzzSummary = { runs: 0, accepted: 0, rejected: 0, outsideChanged: false, bytesOutside: 0 };
  const property = fc.asyncProperty(fuzzCaseArbitrary, async ([tree, rawPatch]) => {
    const patch = rawPatch.replaceAll('${OUTSIDE}', sandbox.outside);
    writeFuzzTree(sandbox, tree);
    const before = checksumTree(sandbox.workspace);
    summary.runs++;
    let result: ToolResult;
    try {
      result = await call('apply_patch', { input: patch });
    } catch (error) {
      throw new Error(`apply_patch threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    checkFuzzedResult(result, sandbox, sentinel, summary);
    if (result.ok) summary.accepted++;
    else {
      summary.rejected++;
      if (checksumTree(sandbox.workspace) !== before) throw new Error(`rejected patch changed the workspace: ${describeResult(result)}`);
    }
  });
  const details = await fc.check(property, { numRuns, seed, endOnFailure: false });
  if (details.failed) {
    summary.failure = `seed ${details.seed}, path ${details.counterexamplePath}: ${String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance)}\ncounterexample: ${JSON.stringify(details.counterexample)}`;
  }
  return summary;
}
