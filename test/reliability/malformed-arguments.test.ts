import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approximateTokenizer } from '@toolhost/core';
import type { ToolHost } from 'toolhost';
import { buildMalformedArguments, loadMalformedCases, prototypeFingerprint } from './helpers/malformed-corpus.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { describeResult, resultShapeProblems } from './helpers/result-shape.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';

const cases = loadMalformedCases();
const TOOLS = ['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search'];
let sandbox: Sandbox;
let host: ToolHost;
let catSession: number;
let fingerprint: string;
let validCount = 0;

/** A valid call of each tool, to prove the host keeps working after a malformed one. */
const validCalls: Record<string, () => [string, Record<string, unknown>]> = {
  exec_command: () => ['exec_command', { cmd: 'echo still-working', yield_time_ms: 15_000 }],
  write_stdin: () => ['write_stdin', { session_id: catSession, chars: 'ping\n', yield_time_ms: 250 }],
  apply_patch: () => ['apply_patch', { input: `*** Begin Patch\n*** Add File: valid/${++validCount}.txt\n+ok\n*** End Patch\n` }],
  search_tools: () => ['search_tools', { query: 'github pull request' }],
  code_search: () => ['code_search', { query: 'hello' }],
};

beforeAll(async () => {
  sandbox = createSandbox();
  host = createReliabilityHost(sandbox.workspace);
  const started = await host.call('exec_command', { cmd: 'cat', yield_time_ms: 250 });
  expect(started.ok, describeResult(started)).toBe(true);
  catSession = Number(started.data?.session_id);
  expect(Number.isInteger(catSession)).toBe(true);
  fingerprint = prototypeFingerprint();
});

afterAll(async () => {
  await host?.close();
  sandbox?.remove();
});

describe('malformed-argument corpus', () => {
  it('covers every tool with the required kinds of damage', () => {
    for (const tool of TOOLS) {
      const mine = cases.filter((entry) => entry.tool === tool);
      expect(mine.length, tool).toBeGreaterThanOrEqual(30);
      expect(
        mine.some((entry) => entry.json?.includes('__proto__')),
        `${tool} __proto__`,
      ).toBe(true);
      expect(
        mine.some((entry) => entry.generate?.kind === 'huge-string'),
        `${tool} huge string`,
      ).toBe(true);
      expect(
        mine.some((entry) => entry.generate?.kind === 'deep-json'),
        `${tool} deep JSON`,
      ).toBe(true);
    }
    const protoCase = cases.find((entry) => entry.json?.includes('"__proto__"'))!;
    expect(Object.hasOwn(buildMalformedArguments(protoCase) as object, '__proto__')).toBe(true);
  });

  it.each(cases.map((entry) => [`${entry.id}${entry.note ? ` (${entry.note})` : ''}`, entry] as const))('%s', async (_label, entry) => {
    const args = buildMalformedArguments(entry);
    let result;
    try {
      result = await host.call(entry.tool, args);
    } catch (error) {
      expect.fail(`host.call threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    expect(resultShapeProblems(result)).toEqual([]);
    expect(result.error?.code, describeResult(result)).toBe('invalid_arguments');
    // DESIGN §3: the model-visible output never holds more than max_output_tokens (default 10,000) tokens.
    expect(approximateTokenizer.count(result.output), 'output tokens of the error').toBeLessThanOrEqual(10_000);
    expect(prototypeFingerprint()).toBe(fingerprint);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const [name, valid] = validCalls[entry.tool]!();
    const after = await host.call(name, valid);
    expect(after.ok, `valid ${name} after the malformed call: ${describeResult(after)}`).toBe(true);
  });

  it('leaves the workspace without any file the malformed patches named', async () => {
    const listing = await host.call('exec_command', { cmd: 'ls -a', yield_time_ms: 15_000 });
    expect(listing.output).not.toContain('never-written.txt');
  });
});
