import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolHost } from 'toolhost';
import { killMarkedProcesses } from '../helpers/proc-scan.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';
import { runToctouRace } from './helpers/toctou-race.js';

const ATTEMPTS = 1_000;
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
    const race = await runToctouRace((name, args) => host.call(name, args), sandbox, ATTEMPTS, marker);
    console.log(
      `toctou: ${race.attempts} patches, ${race.swaps} swaps, results ${JSON.stringify(race.codes)}, bytes changed outside ${race.bytesOutside}`,
    );
    expect(race.swaps).toBeGreaterThan(0);
    expect({
      outside: race.listingAfter,
      bytesOutside: race.bytesOutside,
      shapeProblems: race.shapeProblems,
      internalErrors: race.internalErrors,
    }).toEqual({ outside: race.listingBefore, bytesOutside: 0, shapeProblems: [], internalErrors: [] });
  });
});
