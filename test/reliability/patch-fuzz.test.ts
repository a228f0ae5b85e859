import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolHost } from 'toolhost';
import { runNativeEditFuzz } from './helpers/native-edit-fuzz.js';
import { NATIVE_EDIT_SURFACES } from './helpers/native-paths.js';
import { runPatchFuzz } from './helpers/patch-fuzz.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';

let sandbox: Sandbox;
let host: ToolHost;

beforeAll(() => {
  sandbox = createSandbox();
  host = createReliabilityHost(sandbox.workspace);
});

afterAll(async () => {
  await host?.close();
  sandbox?.remove();
});

describe('apply_patch fuzzing (fast-check)', () => {
  it('never throws, never writes outside, and a rejected patch leaves every byte as it was', async () => {
    const summary = await runPatchFuzz((name, args) => host.call(name, args), sandbox, 150);
    console.log(`patch fuzz: ${summary.runs} runs, ${summary.accepted} applied, ${summary.rejected} rejected`);
    expect(summary.failure).toBeUndefined();
    expect(summary.outsideChanged).toBe(false);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
  }, 120_000);
});

describe.each(NATIVE_EDIT_SURFACES.map((surface) => [surface]))('native edit fuzzing through %s (fast-check)', (surface) => {
  it('never throws, never writes outside, a rejected edit changes nothing, an accepted one matches the reference', async () => {
    const summary = await runNativeEditFuzz(
      host,
      surface,
      sandbox,
      Number(process.env.FUZZ_RUNS ?? 150),
      process.env.FUZZ_RUNS ? undefined : 20261203,
    );
    console.log(`${surface} fuzz: ${summary.runs} runs, ${summary.accepted} applied, ${summary.rejected} rejected`);
    expect(summary.failure).toBeUndefined();
    expect(summary.outsideChanged).toBe(false);
    expect(summary.accepted).toBeGreaterThan(10);
    expect(summary.rejected).toBeGreaterThan(10);
  }, 120_000);
});
