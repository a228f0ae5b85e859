import { describe, expect, it } from 'vitest';
import { SYNC_FOLDERS_SCRIPT, WRITE_SCRIPT } from './file-scripts.js';
import { WRITE_MANY_SCRIPT } from './many-file-scripts.js';
import type { ScriptRunner } from './script-runner.js';
import { createScriptWorkspace } from './script-workspace.js';

interface Call {
  script: string;
  args: string[];
}

/** A runner that records each script and answers success (for WRITE_MANY_SCRIPT, each file's trailer). */
function recording(): { run: ScriptRunner; calls: Call[] } {
  const calls: Call[] = [];
  const run: ScriptRunner = async (script, args) => {
    calls.push({ script, args });
    if (script !== WRITE_MANY_SCRIPT) return { exitCode: 0, stdout: Buffer.alloc(0), stderr: '' };
    const marker = args[0]!;
    const count = (args.length - 1) / 5;
    const trailers = Array.from({ length: count }, (_, index) => `${marker}${index}:0\n`).join('');
    const errors = Array.from({ length: count }, (_, index) => `\n${marker}${index}\n`).join('');
    return { exitCode: 0, stdout: Buffer.from(trailers), stderr: errors };
  };
  return { run, calls };
}

const bytes = new TextEncoder().encode('x');

describe('createScriptWorkspace flushing', () => {
  it('flushes a durable write and the folders by default', async () => {
    const { run, calls } = recording();
    const workspace = createScriptWorkspace('/ws', '/ws', run);
    await workspace.writeFile('a.txt', bytes, { durable: true, tempName: '.t.toolhost.tmp' });
    await workspace.syncFolders!(['a.txt']);
    expect(calls.map((call) => call.script)).toEqual([WRITE_SCRIPT, SYNC_FOLDERS_SCRIPT]);
    expect(calls[0]!.args).toEqual(['/ws/a.txt', '.t.toolhost.tmp', '', '1', '']);
    expect(calls[1]!.args).toEqual(['/ws/a.txt']);
  });

  it('with flush false writes a durable write as any other and flushes no folder', async () => {
    const { run, calls } = recording();
    const workspace = createScriptWorkspace('/ws', '/ws', run, { flush: false });
    await workspace.writeFile('a.txt', bytes, { durable: true, tempName: '.t.toolhost.tmp', deferFolderSync: true });
    await workspace.syncFolders!(['a.txt']);
    expect(calls).toEqual([{ script: WRITE_SCRIPT, args: ['/ws/a.txt', '.t.toolhost.tmp', '', '', '1'] }]);
  });

  it('with flush false and batching, the files written together are not flushed either', async () => {
    const { run, calls } = recording();
    const workspace = createScriptWorkspace('/ws', '/ws', run, {
      flush: false,
      runBatch: async (steps) => Promise.all(steps.map((step) => run(step.script, step.args, step.input))),
      runProcess: run,
    });
    await Promise.all(['a.txt', 'b.txt'].map((path) => workspace.writeFile(path, bytes, { durable: true, mode: 0o644 })));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.script).toBe(WRITE_MANY_SCRIPT);
    const perFile = calls[0]!.args.slice(1);
    expect([perFile[3], perFile[9]]).toEqual(['', '']);
    expect([perFile[0], perFile[6]]).toEqual(['/ws/a.txt', '/ws/b.txt']);
  });

  it('writes a temp as a folder holding the file only when asked to and given the temp name', async () => {
    const { run, calls } = recording();
    const workspace = createScriptWorkspace('/ws', '/ws', run, {
      runBatch: async (steps) => Promise.all(steps.map((step) => run(step.script, step.args, step.input))),
      runProcess: run,
    });
    await Promise.all([
      workspace.writeFile('a.txt', bytes, { tempName: '.a.tmp', tempFolder: true }),
      workspace.writeFile('b.txt', bytes, { tempFolder: true }),
      workspace.writeFile('c.txt', bytes, { tempName: '.c.tmp' }),
    ]);
    expect(calls).toHaveLength(1);
    const perFile = calls[0]!.args.slice(1);
    expect([perFile[5], perFile[11], perFile[17]]).toEqual(['1', '', '']);
    expect([perFile[1], perFile[13]]).toEqual(['.a.tmp', '.c.tmp']);
  });
});
