// Fake host vs real host per call (exec_command, apply_patch), and the cost of each adapter's tool conversion
// against reading host.tools. Run: npm run bench -- fake-host
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAiSdkTools, toAiSdkTools } from '@toolhost/ai-sdk';
import { toAnthropicTools } from '@toolhost/anthropic';
import { toLangChainTools } from '@toolhost/langchain';
import { toMcpTools } from '@toolhost/mcp';
import { toResponsesTools } from '@toolhost/openai';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost } from 'toolhost';

async function median(runs: number, fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(5, runs); i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const ms = (value: number) => (value >= 1 ? `${value.toFixed(2)} ms` : `${(value * 1000).toFixed(1)} µs`);
const flip = (i: number) => (i % 2 === 0 ? ['one', 'two'] : ['two', 'one']);
const patchFor = (i: number) => {
  const [from, to] = flip(i);
  return { input: `*** Begin Patch\n*** Update File: a.txt\n@@\n-${from}\n+${to}\n*** End Patch` };
};

export default async function (): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-bench-fake-'));
  writeFileSync(join(folder, 'a.txt'), 'one\n');
  const options = { profile: 'advanced', shellProfile: 'unix_like', verification: { threshold: Infinity } } as const;
  const real = createToolHost({ workspace: folder, ...options });
  const fake = createFakeToolHost({ ...options, files: { 'a.txt': 'one\n' }, commands: [{ match: 'echo hi', output: 'hi\n' }] });
  try {
    const rows: Array<[string, number, number]> = [];
    rows.push([
      'exec_command "echo hi"',
      await median(30, () => real.call('exec_command', { cmd: 'echo hi' })),
      await median(300, () => fake.call('exec_command', { cmd: 'echo hi' })),
    ]);
    rows.push([
      'apply_patch (1 line)',
      await median(200, (i) => real.call('apply_patch', patchFor(i))),
      await median(500, (i) => fake.call('apply_patch', patchFor(i))),
    ]);
    console.log('| call | real host (median) | fake host (median) | real / fake |');
    console.log('|---|---|---|---|');
    for (const [name, realMs, fakeMs] of rows)
      console.log(`| ${name} | ${ms(realMs)} | ${ms(fakeMs)} | ${(realMs / fakeMs).toFixed(1)}× |`);

    const baseline = await median(2000, () => fake.tools);
    const conversions: Array<[string, () => unknown]> = [
      ['toResponsesTools', () => toResponsesTools(fake)],
      ['toResponsesTools strict', () => toResponsesTools(fake, { strict: true })],
      ['toAnthropicTools', () => toAnthropicTools(fake)],
      ['toAiSdkTools', () => toAiSdkTools(fake)],
      ['createAiSdkTools + prepareStep', () => createAiSdkTools(fake).prepareStep()],
      ['toLangChainTools', () => toLangChainTools(fake)],
      ['toMcpTools', () => toMcpTools(fake)],
    ];
    console.log('\n| conversion of the 5 advanced tools | median | vs reading host.tools |');
    console.log('|---|---|---|');
    console.log(`| host.tools (baseline) | ${ms(baseline)} | 1.0× |`);
    for (const [name, fn] of conversions) {
      const value = await median(2000, fn);
      console.log(`| ${name} | ${ms(value)} | ${(value / baseline).toFixed(1)}× |`);
    }
  } finally {
    await real.close();
    await fake.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
