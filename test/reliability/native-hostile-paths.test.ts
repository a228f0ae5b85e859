import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolHost } from 'toolhost';
import { loadHostileCases, runHostileCase } from './helpers/hostile-corpus.js';
import { NATIVE_EDIT_SURFACES, nativeHostileTarget } from './helpers/native-paths.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';

const cases = loadHostileCases();
let sandbox: Sandbox;
let host: ToolHost;
let sentinel: string;
const savedHome = process.env.HOME;

beforeAll(() => {
  sandbox = createSandbox();
  process.env.HOME = sandbox.home; // a "~" that is expanded anywhere lands in the checksummed tree
  host = createReliabilityHost(sandbox.workspace);
  sentinel = sandbox.checksumOutside();
});

afterAll(async () => {
  await host?.close();
  process.env.HOME = savedHome;
  sandbox?.remove();
});

// The whole corpus through each provider-native edit path: the OpenAI apply_patch_call, the Agents SDK editor and
// Anthropic's text editor reach the same engine, so they must refuse, confine and report exactly as apply_patch does.
describe.each(NATIVE_EDIT_SURFACES.map((surface) => [surface]))('hostile paths through %s', (surface) => {
  it('refuses every escape, confines every inside path and changes nothing outside', async () => {
    const target = nativeHostileTarget(surface, host);
    const failures: string[] = [];
    let operations = 0;
    for (const entry of cases) {
      for (const outcome of await runHostileCase(target, sandbox, entry, sentinel)) {
        operations++;
        if (outcome.problems.length) failures.push(`${entry.id} ${outcome.operation} ${JSON.stringify(entry.path).slice(0, 60)}: ${outcome.problems.join('; ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(operations).toBeGreaterThanOrEqual(cases.length * 2);
    expect(sandbox.checksumOutside()).toBe(sentinel);
  }, 120_000);
});
