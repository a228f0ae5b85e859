import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolHost } from 'toolhost';
import { killMarkedProcesses } from './helpers/proc-scan.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { resultShapeProblems } from './helpers/result-shape.js';
import { createSandbox, SENTINEL_TEXT, type Sandbox } from './helpers/sandbox.js';
import { startSymlinkSwapper } from './helpers/symlink-swapper.js';

const ATTEMPTS = 300;
const marker = `toolhost-toctou-${randomUUID()}`;
let sandbox: Sandbox;
let host: ToolHost;

beforeAll(() => {
  sandbox = createSandbox();
  host = createReliabilityHost(sandbox.workspace);
});

afterAll(async () => {
  killMarkedProcesses(marker);
  await host?.close();
  sandbox?.remove();
});

describe('TOCTOU: a folder swapped for a symlink to outside while apply_patch writes', () => {
  it(`leaves the sentinel tree unchanged over ${ATTEMPTS} racing patches`, async () => {
    const folder = join(sandbox.workspace, 'd');
    mkdirSync(folder);
    writeFileSync(join(folder, 'nested.txt'), SENTINEL_TEXT); // same bytes as outside/dir/nested.txt, so a misdirected update matches
    const sentinel = sandbox.checksumOutside();
    const listing = sandbox.listOutside();
    const swapper = await startSymlinkSwapper(folder, join(sandbox.outside, 'dir'), marker);
    const codes = new Map<string, number>();
    const shapeProblems: string[] = [];
    const internalErrors: string[] = [];
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const body =
          attempt % 3 === 2
            ? `*** Update File: d/nested.txt\n@@ sentinel line\n+added ${attempt}\n`
            : attempt % 3 === 1
              ? `*** Add File: d/sub/new-${attempt}.txt\n+racing ${attempt}\n`
              : `*** Add File: d/new-${attempt}.txt\n+racing ${attempt}\n`;
        const result = await host.call('apply_patch', { input: `*** Begin Patch\n${body}*** End Patch\n` });
        shapeProblems.push(...resultShapeProblems(result));
        const key = result.ok ? 'ok' : result.error!.code;
        if (key === 'internal_error') internalErrors.push(result.output.slice(0, 300));
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    } finally {
      const swaps = await swapper.stop();
      console.log(`toctou: ${ATTEMPTS} patches, ${swaps} swaps, results ${JSON.stringify(Object.fromEntries(codes))}`);
      expect(swaps).toBeGreaterThan(0);
    }
    const after = sandbox.checksumOutside();
    expect({
      outside: after === sentinel ? 'unchanged' : sandbox.listOutside(),
      shapeProblems,
      internalErrors,
    }).toEqual({ outside: after === sentinel ? 'unchanged' : listing, shapeProblems: [], internalErrors: [] });
    expect(after).toBe(sentinel);
  });
});
