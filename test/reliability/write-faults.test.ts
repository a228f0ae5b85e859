import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approximateTokenizer, createMemorySpool, type ToolContext, type Workspace } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createApplyPatchTool } from '@toolhost/patch';
import { createFaultyWorkspace } from './helpers/faulty-workspace.js';
import { fuzzCaseArbitrary, writeFuzzTree } from './helpers/patch-fuzz.js';
import { describeResult, resultShapeProblems } from './helpers/result-shape.js';
import { checksumTree, createSandbox, listTree, type Sandbox } from './helpers/sandbox.js';

const TREE: Record<string, string> = {
  'a.txt': 'alpha\nbeta\ngamma\n',
  'bin/run.sh': '#!/bin/sh\necho run\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'gone.txt': 'to be deleted\n',
  'old/name.txt': 'moving\nfile\n',
  'bom.txt': '\ufeffbom first\nsecond',
};

/** Touches every kind of operation: two updates (one executable, one CRLF), add, delete, move, BOM edit. */
const MULTI_FILE_PATCH = `*** Begin Patch
*** Update File: a.txt
@@
 alpha
-beta
+BETA
*** Update File: bin/run.sh
@@
-echo run
+echo running
*** Update File: crlf.txt
@@
-two
+TWO
*** Add File: new/added.txt
+added line
*** Delete File: gone.txt
*** Update File: old/name.txt
*** Move to: moved/name.txt
@@
-moving
+moved
*** Update File: bom.txt
@@
-second
+SECOND
*** End Patch
`;

let sandbox: Sandbox;
const tool = createApplyPatchTool();

function context(workspace: Workspace): ToolContext {
  return {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 10_000,
    shell: 'unix_like',
    signal: new AbortController().signal,
  };
}

function writeTree(): void {
  sandbox.resetWorkspace();
  for (const [path, text] of Object.entries(TREE)) {
    const full = join(sandbox.workspace, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  chmodSync(join(sandbox.workspace, 'bin/run.sh'), 0o755);
}

async function applyWith(faults: { failWrite?: number; failRemove?: number }, patch = MULTI_FILE_PATCH) {
  const workspace = createFaultyWorkspace(createNodeWorkspace(sandbox.workspace), faults);
  const result = await tool.execute({ input: patch }, context(workspace));
  return { result, workspace };
}

beforeAll(() => {
  sandbox = createSandbox();
});

/** Applies the multi-file patch once per possible fault (each write, each removal) and sorts what changed. */
async function runEverySingleFault() {
  writeTree();
  const counts = await applyWith({});
  // A fault after the commit point (every file written, only the kept old copies left to drop) may leave the edit
  // wholly applied; anything else must leave it wholly undone.
  const filesAfter = checksumTree(sandbox.workspace, new Set(), { directories: false });
  const after = checksumTree(sandbox.workspace);
  const plans = [
    ...Array.from({ length: counts.workspace.writes }, (_, index) => ({ failWrite: index + 1 })),
    ...Array.from({ length: counts.workspace.removes }, (_, index) => ({ failRemove: index + 1 })),
  ];
  const fileProblems: string[] = [];
  const folderProblems: string[] = [];
  const sentinel = sandbox.checksumOutside();
  for (const faults of plans) {
    writeTree();
    const filesBefore = checksumTree(sandbox.workspace, new Set(), { directories: false });
    const before = checksumTree(sandbox.workspace);
    const listing = listTree(sandbox.workspace);
    let result;
    try {
      result = (await applyWith(faults)).result;
    } catch (error) {
      fileProblems.push(`${JSON.stringify(faults)}: execute threw ${String(error)}`);
      continue;
    }
    const shape = resultShapeProblems(result);
    if (shape.length) fileProblems.push(`${JSON.stringify(faults)}: ${shape.join('; ')}`);
    const now = listTree(sandbox.workspace);
    const change = `new: ${now.filter((line) => !listing.includes(line)).join(', ') || '-'}; gone or different: ${listing.filter((line) => !now.includes(line)).join(', ') || '-'}`;
    if (result.ok) {
      if (checksumTree(sandbox.workspace, new Set(), { directories: false }) !== filesAfter || checksumTree(sandbox.workspace) !== after) {
        fileProblems.push(
          `${JSON.stringify(faults)}: the patch reported success but the files are not as a clean run leaves them (${change})`,
        );
      }
    } else if (checksumTree(sandbox.workspace, new Set(), { directories: false }) !== filesBefore) {
      fileProblems.push(`${JSON.stringify(faults)}: file bytes changed (${change}) after ${describeResult(result)}`);
    } else if (checksumTree(sandbox.workspace) !== before) {
      folderProblems.push(`${JSON.stringify(faults)}: folders left behind (${change}) after ${describeResult(result)}`);
    }
  }
  return { plans: plans.length, fileProblems, folderProblems, sentinel };
}

afterAll(() => {
  sandbox?.remove();
});

describe('fault injection through the Workspace interface', () => {
  it('wraps every method of the real workspace, optional ones included', () => {
    const inner = createNodeWorkspace(sandbox.workspace);
    const wrapped = createFaultyWorkspace(inner);
    const methods = (value: object) =>
      Object.keys(value)
        .filter((key) => typeof (value as Record<string, unknown>)[key] === 'function')
        .sort();
    expect(methods(wrapped)).toEqual(methods(inner));
  });

  it('applies the multi-file patch when nothing fails (the baseline the faults are counted against)', async () => {
    writeTree();
    const { result, workspace } = await applyWith({});
    expect(result.ok, describeResult(result)).toBe(true);
    expect(workspace.writes).toBeGreaterThanOrEqual(6);
    expect(workspace.removes).toBeGreaterThanOrEqual(2);
  });

  it('leaves every file as it was when any single write or removal fails midway', async () => {
    const outcomes = await runEverySingleFault();
    expect(outcomes.plans).toBeGreaterThanOrEqual(8);
    expect(outcomes.fileProblems).toEqual([]);
    expect(sandbox.checksumOutside()).toBe(outcomes.sentinel);
  });

  it('leaves no new folder behind either (a failure writes nothing)', async () => {
    const outcomes = await runEverySingleFault();
    expect(outcomes.folderProblems).toEqual([]);
  });

  it('restores random trees after a random write fault (fast-check)', async () => {
    let faulted = 0;
    await fc.assert(
      fc.asyncProperty(fuzzCaseArbitrary, fc.integer({ min: 1, max: 3 }), fc.boolean(), async ([tree, patch], failAt, failRemoval) => {
        const input = patch.replaceAll('${OUTSIDE}', sandbox.outside);
        // What a fault-free run leaves: a fault after the commit point (only old copies left to drop) may end there.
        writeFuzzTree(sandbox, tree);
        await tool.execute({ input }, context(createNodeWorkspace(sandbox.workspace)));
        const cleanAfter = checksumTree(sandbox.workspace);
        writeFuzzTree(sandbox, tree);
        const before = checksumTree(sandbox.workspace);
        // Exactly one fault per run (a failing undo after a failing write is a second fault, reported by design).
        const workspace = createFaultyWorkspace(
          createNodeWorkspace(sandbox.workspace),
          failRemoval ? { failRemove: failAt } : { failWrite: failAt },
        );
        const result = await tool.execute({ input }, context(workspace));
        expect(resultShapeProblems(result)).toEqual([]);
        const hitFault = failRemoval ? workspace.removes >= failAt : workspace.writes >= failAt;
        if (hitFault) {
          faulted++;
          // Wholly before (refused), or wholly after (applied, as a fault-free run leaves it).
          expect(checksumTree(sandbox.workspace), describeResult(result)).toBe(result.ok ? cleanAfter : before);
        }
      }),
      { numRuns: 200 },
    );
    console.log(`write faults: ${faulted} of 200 random patches hit an injected fault`);
    expect(faulted).toBeGreaterThan(0);
  }, 120_000);
});
