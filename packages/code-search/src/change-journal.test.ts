import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { skipWhen } from '../../../test/skip-reason.js';
import { createChangeJournal, isLocalFileSystem, type ChangeJournal } from './change-journal.js';

describe(
  'the change journal of the symbol index',
  skipWhen(process.platform === 'linux' ? undefined : 'the change journal uses inotify: Linux only'),
  () => {
    let root = '';
    const journals: ChangeJournal[] = [];
    const open = (options?: Parameters<typeof createChangeJournal>[1]) => {
      const journal = createChangeJournal(root, options);
      expect(journal).toBeDefined();
      journals.push(journal!);
      return journal!;
    };

    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'change-journal-'));
      mkdirSync(join(root, 'src/deep'), { recursive: true });
      writeFileSync(join(root, 'src/a.ts'), 'a\n');
      writeFileSync(join(root, 'src/deep/b.ts'), 'b\n');
    });
    afterEach(() => {
      for (const journal of journals.splice(0)) journal.close();
      rmSync(root, { recursive: true, force: true });
    });

    it('names what changed in each watched folder since the last sync: edits by path, added and removed names by folder', async () => {
      const journal = open();
      for (const folder of ['', 'src', 'src/deep']) expect(journal.watch(folder)).toBe(true);
      expect(await journal.sync()).toEqual({ folders: new Set(), paths: new Set(), renamed: new Set() });

      writeFileSync(join(root, 'src/a.ts'), 'edited\n');
      let changes = await journal.sync();
      expect([...changes!.paths]).toEqual(['src/a.ts']);
      expect([...changes!.folders]).toEqual([]);

      writeFileSync(join(root, 'src/deep/new.ts'), 'new\n');
      renameSync(join(root, 'src/a.ts'), join(root, 'src/deep/a.ts'));
      rmSync(join(root, 'src/deep/b.ts'));
      changes = await journal.sync();
      expect([...changes!.folders].sort()).toEqual(['src', 'src/deep']);
      expect([...changes!.paths].sort()).toEqual(['src/a.ts', 'src/deep/a.ts', 'src/deep/b.ts', 'src/deep/new.ts']);
      expect([...changes!.renamed].sort()).toEqual(['src/a.ts', 'src/deep/a.ts', 'src/deep/b.ts', 'src/deep/new.ts']);
      expect(await journal.sync()).toEqual({ folders: new Set(), paths: new Set(), renamed: new Set() });
    });

    it('always hears a change made just before a sync (the cookie is queued after it)', async () => {
      const journal = open();
      journal.watch('src/deep');
      for (let round = 0; round < 200; round++) {
        writeFileSync(join(root, 'src/deep/b.ts'), `round ${round}\n`);
        expect((await journal.sync())?.paths.has('src/deep/b.ts'), `round ${round}`).toBe(true);
      }
    });

    it('stops hearing a folder once unwatched', async () => {
      const journal = open();
      journal.watch('src');
      journal.watch('src/deep');
      journal.unwatchUnder('src/deep');
      writeFileSync(join(root, 'src/deep/b.ts'), 'unheard\n');
      writeFileSync(join(root, 'src/a.ts'), 'heard\n');
      expect([...(await journal.sync())!.paths]).toEqual(['src/a.ts']);
    });

    it('does not vouch for a sync after more events than the kernel queue may hold, then vouches again', async () => {
      const journal = open({ overflowAt: 10 });
      journal.watch('src');
      for (let index = 0; index < 12; index++) writeFileSync(join(root, `src/f${index}.ts`), '');
      expect(await journal.sync()).toBeUndefined();
      expect(journal.healthy).toBe(true);
      writeFileSync(join(root, 'src/a.ts'), 'again\n');
      expect([...(await journal.sync())!.paths]).toEqual(['src/a.ts']);
    });

    it('skips a folder gone before it is watched, gives up when the root is replaced, and refuses file systems it cannot hear', async () => {
      const journal = open();
      expect(journal.watch('missing')).toBe(false);
      expect(journal.healthy).toBe(true);
      expect(journal.watch('')).toBe(true);
      rmSync(root, { recursive: true });
      mkdirSync(root);
      expect(await journal.sync()).toBeUndefined();
      expect(journal.healthy).toBe(false);
      expect(isLocalFileSystem('/proc')).toBe(false);
      expect(createChangeJournal('/proc')).toBeUndefined();
    });

    it('removes the cookie folders of ended processes when it starts', () => {
      const parent = join(root, 'cookies');
      mkdirSync(join(parent, 'toolhost-index-999999999-abc'), { recursive: true });
      const dayAgo = new Date(Date.now() - 25 * 3_600_000);
      utimesSync(join(parent, 'toolhost-index-999999999-abc'), dayAgo, dayAgo);
      // Recent: its process may live in another PID namespace.
      mkdirSync(join(parent, 'toolhost-index-999999998-recent'));
      mkdirSync(join(parent, `toolhost-index-${process.pid}-live`));
      mkdirSync(join(parent, 'unrelated'));
      const journal = open({ cookieParent: parent });
      const names = readdirSync(parent).sort();
      expect(names).toHaveLength(4);
      expect(names).toContain('toolhost-index-999999998-recent');
      expect(names).toContain(`toolhost-index-${process.pid}-live`);
      expect(names).toContain('unrelated');
      expect(names).not.toContain('toolhost-index-999999999-abc');
      journal.close();
    });

    it('removes its cookie folder on close', () => {
      const parent = join(root, 'cookies');
      mkdirSync(parent);
      const journal = open({ cookieParent: parent });
      expect(readdirSync(parent)).toHaveLength(1);
      journal.close();
      expect(readdirSync(parent)).toEqual([]);
      expect(journal.healthy).toBe(false);
    });
  },
);
