import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolHost } from 'toolhost';
import { HOSTILE_OPERATIONS, loadHostileCases, runHostileCase } from './helpers/hostile-corpus.js';
import { NATIVE_EDIT_SURFACES, nativeHostileTarget } from './helpers/native-paths.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';

const cases = loadHostileCases();
let sandbox: Sandbox;
let host: ToolHost;
let sentinel: string;
const savedHome = process.env.HOME;
const savedStateHome = process.env.XDG_STATE_HOME;
let stateHome: string;

beforeAll(() => {
  sandbox = createSandbox();
  process.env.HOME = sandbox.home; // a "~" that is expanded anywhere lands in the checksummed tree
  // toolhost's own state folder (the journal of multi-file commits) is a write of toolhost's, not of a hostile path.
  stateHome = mkdtempSync(join(tmpdir(), 'toolhost-hostile-state-'));
  process.env.XDG_STATE_HOME = stateHome;
  host = createReliabilityHost(sandbox.workspace);
  sentinel = sandbox.checksumOutside();
});

afterAll(async () => {
  await host?.close();
  process.env.HOME = savedHome;
  if (savedStateHome === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedStateHome;
  rmSync(stateHome, { recursive: true, force: true });
  sandbox?.remove();
});

describe('hostile-path corpus', () => {
  it('holds at least 100 cases of every required kind, each with an expectation', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    const categories = new Set(cases.map((entry) => entry.category));
    for (const kind of [
      'traversal',
      'encoded',
      'unicode',
      'absolute',
      'home',
      'control',
      'long',
      'windows',
      'reserved',
      'symlink',
      'hardlink',
    ]) {
      expect(categories, kind).toContain(kind);
    }
    expect(new Set(cases.map((entry) => entry.id)).size).toBe(cases.length);
    for (const entry of cases) {
      expect(['reject', 'inside', 'unwritable']).toContain(entry.expect);
      if (entry.expect === 'inside') expect(entry.resolved, entry.id).toBeTypeOf('string');
      for (const operation of entry.ops ?? []) expect(HOSTILE_OPERATIONS).toContain(operation);
    }
  });

  it.each(cases.map((entry) => [`${entry.id} ${entry.expect} ${JSON.stringify(entry.path).slice(0, 70)}`, entry] as const))(
    '%s',
    async (_label, entry) => {
      const outcomes = await runHostileCase((name, args) => host.call(name, args), sandbox, entry, sentinel);
      const failures = outcomes
        .filter((outcome) => outcome.problems.length > 0)
        .map((outcome) => `${outcome.operation}: ${outcome.problems.join('; ')}`);
      expect(failures).toEqual([]);
      expect(sandbox.checksumOutside()).toBe(sentinel);
    },
  );
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
        if (outcome.problems.length)
          failures.push(`${entry.id} ${outcome.operation} ${JSON.stringify(entry.path).slice(0, 60)}: ${outcome.problems.join('; ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(operations).toBeGreaterThanOrEqual(cases.length * 2);
    expect(sandbox.checksumOutside()).toBe(sentinel);
  }, 120_000);
});
