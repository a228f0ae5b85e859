import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolHost } from 'toolhost';
import { formatLoad, runLoad } from './helpers/load.js';
import { countOpenFds, settle } from '../helpers/proc-scan.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';

let sandbox: Sandbox;
let host: ToolHost;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  sandbox = createSandbox();
  process.on('unhandledRejection', onUnhandled);
  host = createReliabilityHost(sandbox.workspace);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await host?.close();
  sandbox?.remove();
});

describe('load', () => {
  it('answers 1,000 mixed calls with 16 in flight, every result well-formed', async () => {
    const sentinel = sandbox.checksumOutside();
    const summary = await runLoad((name, args) => host.call(name, args), 1_000, 16);
    console.log(formatLoad(summary));
    expect(summary.problems).toEqual([]);
    expect(summary.overall.count).toBe(1_000);
    for (const tool of ['exec_command', 'apply_patch', 'search_tools', 'code_search']) {
      expect(summary.codes[tool], tool).toEqual({ ok: 250 });
    }
    expect(unhandled.map(String)).toEqual([]);
    expect(sandbox.checksumOutside()).toBe(sentinel);
  }, 240_000);

  it('releases every descriptor the load opened once the host closes', async () => {
    const before = countOpenFds();
    const second = createReliabilityHost(sandbox.workspace);
    await runLoad((name, args) => second.call(name, args), 100, 16);
    await second.close();
    const after = await settle(countOpenFds, (count) => count <= before);
    expect(after).toBeLessThanOrEqual(before);
  }, 120_000);
});
