import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CommitJournalStore, Environment } from '@toolhost/core';
import { ENGINES, needsEngine, type PreparedEngine } from './engines.js';

// The journal store of a remote workspace lives on the remote machine; a host that died mid-commit leaves its journal
// there, and the next host claims it only once that host is known to be gone and its helpers are ended.
const remotes = ENGINES.filter((engine) => engine.name === 'docker' || engine.name === 'ssh');
const availability = await Promise.all(remotes.map(async (engine) => ({ engine, reason: await engine.unavailable() })));

/** A pid of this machine that no process has any more. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

for (const { engine, reason } of availability) {
  describe(`${engine.name}: the remote journal store`, needsEngine(engine.name, reason), () => {
    let prepared: PreparedEngine;
    let environment: Environment;
    let store: CommitJournalStore;
    let machine: string;
    beforeAll(async () => {
      prepared = await engine.prepare();
      environment = await prepared.environment();
      store = environment.workspace.commitJournal!;
      machine = store.owner!.split('-')[0]!;
    }, 60_000);
    afterAll(async () => {
      await environment?.close();
      await prepared?.cleanup();
    }, 60_000);

    const exists = async (path: string) => (await prepared.probe(`[ -e ${quoted(path)} ] && echo yes || echo no`)).output.trim() === 'yes';

    test('keeps journals on the remote in the state folder, mode 600, and removes the folder with the last one', async () => {
      expect(await store.list()).toEqual([]);
      await store.write('a.json', '{"a":1}');
      await store.write('b.json', '{"b":2}');
      await store.write('a.json', '{"a":3}');
      expect(store.location).toMatch(/\/toolhost\/commits\/[0-9a-f]{24}$/);
      expect((await store.list()).sort()).toEqual(['a.json', 'b.json']);
      expect(await store.read('a.json')).toBe('{"a":3}');
      const mode = await prepared.probe(`stat -c %a ${quoted(`${store.location}/a.json`)}`);
      expect(mode.output.trim()).toBe('600');
      // Only the journals: no temp file of a write is left.
      expect((await prepared.probe(`ls -A ${quoted(store.location)}`)).output.split('\n').filter(Boolean).sort()).toEqual([
        'a.json',
        'b.json',
      ]);
      await store.remove('a.json');
      await store.remove('a.json');
      expect(await exists(store.location)).toBe(true);
      await store.remove('b.json');
      expect(await exists(store.location)).toBe(false);
      expect(await store.list()).toEqual([]);
    });

    test('a stopped writer’s temp file is swept by list(), and the folder goes with it', async () => {
      await store.write('c.json', '{}');
      const stray = `${store.location}/.${machine}-${deadPid()}-0badf00d.0123456789ab.tmp`;
      const live = `${store.location}/.${machine}-${process.pid}-0badf00d.0123456789ab.tmp`;
      await prepared.probe(`echo x > ${quoted(stray)}; echo y > ${quoted(live)}`);
      expect(await store.list()).toEqual(['c.json']);
      expect(await exists(stray)).toBe(false);
      expect(await exists(live)).toBe(true);
      await prepared.probe(`rm -f ${quoted(live)}`);
      await store.remove('c.json');
      expect(await exists(store.location)).toBe(false);
    });

    test('claim: never a host that may run; a stopped host of this machine once its helpers are ended', async () => {
      expect(await store.claim!({ pid: process.pid, owner: store.owner! })).toBe(true);
      expect(await store.claim!({ pid: process.pid, owner: `${machine}-${process.pid}-00000001` })).toBe(false);
      expect(await store.claim!({ pid: 1, owner: `${machine === '00000000' ? '11111111' : '00000000'}-${deadPid()}-00000001` })).toBe(
        false,
      );
      expect(await store.claim!({ pid: deadPid() })).toBe(false);
      // A helper the stopped host left running on the remote (a write it sent before it died) is ended first.
      const dead = `${machine}-${deadPid()}-00000002`;
      const helper = await environment.processes.executor('pipe').spawn({
        file: '/bin/sh',
        args: ['-c', 'sleep 60'],
        cwd: environment.workspace.root,
        env: { TOOLHOST_HELPER: dead },
        rows: 24,
        cols: 80,
      });
      const running = `grep -l -z -x -F -e ${quoted(`TOOLHOST_HELPER=${dead}`)} /proc/[0-9]*/environ 2>/dev/null | grep -v self | wc -l`;
      for (let attempt = 0; Number((await prepared.probe(running)).output.trim()) === 0; attempt++) {
        if (attempt > 100) throw new Error('the marked helper never started');
      }
      const settled = new Promise<void>((resolve) => helper.onSettled(() => resolve()));
      expect(await store.claim!({ pid: 1, owner: dead })).toBe(true);
      expect(Number((await prepared.probe(running)).output.trim())).toBe(0);
      await settled;
    });

    test('the workspace renames, hard-links and writes durably under a given temp name', async () => {
      const workspace = environment.workspace;
      await workspace.writeFile('j/a.txt', new TextEncoder().encode('a'), { durable: true, tempName: '.given.toolhost.tmp' });
      expect(await workspace.readdir('j')).toEqual([{ name: 'a.txt', kind: 'file' }]);
      await workspace.link!('j/a.txt', 'j/b.txt');
      await expect(workspace.link!('j/a.txt', 'j/b.txt')).rejects.toThrow();
      await workspace.writeFile('j/c.txt', new TextEncoder().encode('c'));
      await workspace.rename!('j/c.txt', 'j/a.txt');
      expect(new TextDecoder().decode(await workspace.readFile('j/a.txt'))).toBe('c');
      expect(new TextDecoder().decode(await workspace.readFile('j/b.txt'))).toBe('a');
      expect(await workspace.lstat('j/c.txt')).toBeUndefined();
      await workspace.createSymlink!('j/l', 'b.txt');
      await workspace.link!('j/l', 'j/l2');
      expect(await workspace.lstat('j/l2')).toMatchObject({ kind: 'symlink' });
      expect(await workspace.readLink!('j/l2')).toBe('b.txt');
    });
  });
}
