import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderJournalStore } from './node-commit-journal.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'toolhost-journal-store-'));
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('createFolderJournalStore', () => {
  it('leaves no folder after its last journal goes', async () => {
    const directory = join(base, 'commits', 'root');
    const store = createFolderJournalStore(directory);
    await store.write('a.json', '{}');
    expect(await store.list()).toEqual(['a.json']);
    await store.remove('a.json');
    expect(existsSync(directory)).toBe(false);
  });

  it('removes the empty folder a writer killed between its mkdir and its write left', async () => {
    const directory = join(base, 'commits', 'root');
    mkdirSync(directory, { recursive: true });
    expect(await createFolderJournalStore(directory).list()).toEqual([]);
    expect(existsSync(directory)).toBe(false);
  });

  it("sweeps a killed writer's temp file with its folder, and keeps a folder that holds journals", async () => {
    const directory = join(base, 'commits', 'root');
    mkdirSync(directory, { recursive: true });
    // No process has pid 2^22 + 1 on Linux (pid_max is at most 2^22).
    writeFileSync(join(directory, '.abcdef.4194305.tmp'), 'partial');
    expect(await createFolderJournalStore(directory).list()).toEqual([]);
    expect(existsSync(directory)).toBe(false);

    const store = createFolderJournalStore(directory);
    await store.write('b.json', '{}');
    writeFileSync(join(directory, '.abcdef.4194305.tmp'), 'partial');
    expect(await store.list()).toEqual(['b.json']);
    expect(readdirSync(directory)).toEqual(['b.json']);
  });
});
