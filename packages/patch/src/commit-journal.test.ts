import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, linkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspace } from '@toolhost/core/node';
import type { Workspace } from '@toolhost/core';
import { applyPatch } from './apply-patch.js';
import type { CommitJournal } from './commit-journal.js';

let root: string;
let state: string;
let workspace: Workspace;
const deadPid = spawnSync('true').pid!;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolhost-journal-'));
  state = mkdtempSync(join(tmpdir(), 'toolhost-journal-state-'));
  workspace = createNodeWorkspace(root, { stateDirectory: state });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

const read = (path: string) => readFileSync(join(root, path), 'utf8');
const probe = '*** Begin Patch\n*** Add File: probe.txt\n+p\n*** End Patch';

async function leaveJournal(journal: Omit<CommitJournal, 'version' | 'pid'>): Promise<void> {
  await workspace.commitJournal!.write(`${journal.id}.json`, JSON.stringify({ version: 1, pid: deadPid, ...journal }));
}

describe('the commit journal', () => {
  it('leaves nothing behind after a clean multi-file commit', async () => {
    writeFileSync(join(root, 'a.txt'), 'a\n');
    writeFileSync(join(root, 'b.txt'), 'b\n');
    const result = await applyPatch(
      workspace,
      '*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** Delete File: b.txt\n*** Add File: c/d.txt\n+d\n*** End Patch',
    );
    expect(result.ok).toBe(true);
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'c']);
    expect(readdirSync(join(root, 'c'))).toEqual(['d.txt']);
    expect(readdirSync(state, { recursive: true })).toEqual(['commits']);
  });

  it("flushes the backups' folders, then the written folders, once each; no write flushes its own folder", async () => {
    writeFileSync(join(root, 'a.txt'), 'a\n');
    writeFileSync(join(root, 'b.txt'), 'b\n');
    const flushed: string[][] = [];
    const deferred: (boolean | undefined)[] = [];
    const watched: Workspace = {
      ...workspace,
      writeFile: (path, data, options) => {
        deferred.push(options?.deferFolderSync);
        return workspace.writeFile(path, data, options);
      },
      syncFolders: (paths) => {
        flushed.push([...paths]);
        return workspace.syncFolders!(paths);
      },
    };
    const result = await applyPatch(
      watched,
      '*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** Delete File: b.txt\n*** Add File: c/d.txt\n+d\n*** End Patch',
    );
    expect(result.ok).toBe(true);
    expect(deferred).toEqual([true, true]);
    expect(flushed).toEqual([
      [expect.stringMatching(/^\.[0-9a-f]+-0\.toolhost\.old$/), expect.stringMatching(/^\.[0-9a-f]+-2\.toolhost\.old$/)],
      ['a.txt', 'c/d.txt', 'c', 'b.txt'],
    ]);
  });

  it('rolls every file back when flushing the written folders fails', async () => {
    writeFileSync(join(root, 'a.txt'), 'a\n');
    writeFileSync(join(root, 'b.txt'), 'b\n');
    let calls = 0;
    const failing: Workspace = {
      ...workspace,
      syncFolders: async (paths) => {
        if (++calls === 2) throw new Error('EIO: i/o error, fsync');
        await workspace.syncFolders!(paths);
      },
    };
    const result = await applyPatch(
      failing,
      '*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** Delete File: b.txt\n*** Add File: c/d.txt\n+d\n*** End Patch',
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      'flushing the written files to disk failed (EIO: i/o error, fsync); every file already written was restored',
    );
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'b.txt']);
    expect(read('a.txt')).toBe('a\n');
    expect(read('b.txt')).toBe('b\n');
    expect(readdirSync(state, { recursive: true })).toEqual(['commits']);
  });

  it('rolls back a commit stopped while writing: backups renamed back, new files and their folders removed', async () => {
    writeFileSync(join(root, 'a.txt'), 'new a\n');
    writeFileSync(join(root, '.j1-0.toolhost.old'), 'old a\n');
    writeFileSync(join(root, 'b.txt'), 'b\n');
    linkSync(join(root, 'b.txt'), join(root, '.j1-1.toolhost.old'));
    writeFileSync(join(root, '.j1-1.toolhost.tmp'), 'half');
    mkdirSync(join(root, 'n'));
    writeFileSync(join(root, 'n', 'new.txt'), 'created\n');
    await leaveJournal({
      id: 'j1',
      phase: 'writing',
      entries: [
        { key: 'a.txt', backup: '.j1-0.toolhost.old', temp: '.j1-0.toolhost.tmp' },
        { key: 'b.txt', backup: '.j1-1.toolhost.old', temp: '.j1-1.toolhost.tmp' },
        { key: 'n/new.txt', temp: '.j1-2.toolhost.tmp', createsFolders: ['n'] },
      ],
    });
    const result = await applyPatch(workspace, probe);
    expect(result.ok).toBe(true);
    expect(result.output.split('\n')[0]).toBe(
      'Note: an earlier edit was interrupted (its process stopped) while writing and was rolled back; these files are as before it: a.txt, b.txt, n/new.txt.',
    );
    expect(read('a.txt')).toBe('old a\n');
    expect(read('b.txt')).toBe('b\n');
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'b.txt', 'probe.txt']);
    expect(existsSync(workspace.commitJournal!.location)).toBe(false);
    // Said once: the next edit has nothing to report.
    const next = await applyPatch(workspace, '*** Begin Patch\n*** Delete File: probe.txt\n*** End Patch');
    expect(next.output).toBe('Success. Updated the following files:\nD probe.txt\n');
  });

  it('rolls back a commit stopped while writing whose temps are folders: each folder goes with the file in it', async () => {
    writeFileSync(join(root, 'a.txt'), 'a\n');
    linkSync(join(root, 'a.txt'), join(root, '.j3-0.toolhost.old'));
    mkdirSync(join(root, '.j3-0.toolhost.tmp'));
    writeFileSync(join(root, '.j3-0.toolhost.tmp', 'a.txt'), 'half');
    // Its file already moved into place, the folder left empty.
    writeFileSync(join(root, 'b.txt'), 'new b\n');
    writeFileSync(join(root, '.j3-1.toolhost.old'), 'old b\n');
    mkdirSync(join(root, '.j3-1.toolhost.tmp'));
    mkdirSync(join(root, 'n', '.j3-2.toolhost.tmp'), { recursive: true });
    writeFileSync(join(root, 'n', '.j3-2.toolhost.tmp', 'new.txt'), 'unpacked');
    await leaveJournal({
      id: 'j3',
      phase: 'writing',
      entries: [
        { key: 'a.txt', backup: '.j3-0.toolhost.old', temp: '.j3-0.toolhost.tmp' },
        { key: 'b.txt', backup: '.j3-1.toolhost.old', temp: '.j3-1.toolhost.tmp' },
        { key: 'n/new.txt', temp: '.j3-2.toolhost.tmp', createsFolders: ['n'] },
      ],
    });
    const result = await applyPatch(workspace, probe);
    expect(result.ok).toBe(true);
    expect(read('a.txt')).toBe('a\n');
    expect(read('b.txt')).toBe('old b\n');
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'b.txt', 'probe.txt']);
  });

  it('completes a commit stopped after writing every file: its backups go, its files stand', async () => {
    writeFileSync(join(root, 'a.txt'), 'new a\n');
    writeFileSync(join(root, '.j2-0.toolhost.old'), 'old a\n');
    await leaveJournal({
      id: 'j2',
      phase: 'written',
      entries: [
        { key: 'a.txt', backup: '.j2-0.toolhost.old', temp: '.j2-0.toolhost.tmp' },
        { key: 'gone.txt', backup: '.j2-1.toolhost.old' },
      ],
    });
    const result = await applyPatch(workspace, probe);
    expect(result.output.split('\n')[0]).toBe(
      'Note: an earlier edit was interrupted (its process stopped) after writing every file and was completed; these files are as it wrote them: a.txt, gone.txt.',
    );
    expect(read('a.txt')).toBe('new a\n');
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'probe.txt']);
  });

  it('leaves the journal of a commit whose process is still running alone', async () => {
    writeFileSync(join(root, 'a.txt'), 'new a\n');
    writeFileSync(join(root, '.j3-0.toolhost.old'), 'old a\n');
    await workspace.commitJournal!.write(
      'j3.json',
      JSON.stringify({
        version: 1,
        id: 'j3',
        pid: process.ppid,
        phase: 'writing',
        entries: [{ key: 'a.txt', backup: '.j3-0.toolhost.old' }],
      }),
    );
    const result = await applyPatch(workspace, probe);
    expect(result.output).toBe('Success. Updated the following files:\nA probe.txt\n');
    expect(read('a.txt')).toBe('new a\n');
    expect(await workspace.commitJournal!.list()).toEqual(['j3.json']);
  });
});
