import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallTool } from './hostile-corpus.js';
import { resultShapeProblems } from './result-shape.js';
import { SENTINEL_TEXT, type Sandbox } from './sandbox.js';
import { startSymlinkSwapper } from './symlink-swapper.js';

/** What a TOCTOU race run saw. */
export interface ToctouSummary {
  attempts: number;
  swaps: number;
  codes: Record<string, number>;
  shapeProblems: string[];
  internalErrors: string[];
  /** Bytes outside the workspace that differ afterwards (the outside tree is restored). */
  bytesOutside: number;
  /** Listing of the outside tree before and after, when it changed. */
  listingBefore: string[];
  listingAfter: string[];
}

/**
 * Races apply_patch (adds and updates under `d/`) against a process that keeps swapping the folder `d` for a symlink
 * to the sentinel folder outside. The sentinel must stay unchanged whatever the results.
 */
export async function runToctouRace(call: CallTool, sandbox: Sandbox, attempts: number, marker: string): Promise<ToctouSummary> {
  sandbox.resetWorkspace();
  const folder = join(sandbox.workspace, 'd');
  mkdirSync(folder);
  writeFileSync(join(folder, 'nested.txt'), SENTINEL_TEXT); // same bytes as outside/dir/nested.txt, so a misdirected update matches
  const sentinel = sandbox.checksumOutside();
  const listingBefore = sandbox.listOutside();
  const swapper = await startSymlinkSwapper(folder, join(sandbox.outside, 'dir'), marker);
  const codes: Record<string, number> = {};
  const shapeProblems: string[] = [];
  const internalErrors: string[] = [];
  let swaps: number;
  try {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const body =
        attempt % 3 === 2
          ? `*** Update File: d/nested.txt\n@@ sentinel line\n+added ${attempt}\n`
          : attempt % 3 === 1
            ? `*** Add File: d/sub/new-${attempt}.txt\n+racing ${attempt}\n`
            : `*** Add File: d/new-${attempt}.txt\n+racing ${attempt}\n`;
      const result = await call('apply_patch', { input: `*** Begin Patch\n${body}*** End Patch\n` });
      shapeProblems.push(...resultShapeProblems(result));
      const key = result.ok ? 'ok' : (result.error?.code ?? 'missing');
      if (key === 'internal_error') internalErrors.push(result.output.slice(0, 300));
      codes[key] = (codes[key] ?? 0) + 1;
    }
  } finally {
    swaps = await swapper.stop();
  }
  let bytesOutside = 0;
  let listingAfter = listingBefore;
  if (sandbox.checksumOutside() !== sentinel) {
    bytesOutside = sandbox.bytesChangedOutside();
    listingAfter = sandbox.listOutside();
    sandbox.restoreOutside();
  }
  return { attempts, swaps, codes, shapeProblems, internalErrors, bytesOutside, listingBefore, listingAfter };
}
