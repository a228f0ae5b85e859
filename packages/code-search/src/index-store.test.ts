import { linkSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeJournal, JournalChanges } from './change-journal.js';
import { createSyntaxParser, nodeGrammarSource, type SyntaxParser } from './grammar-loader.js';
import { createIndexStore } from './index-store.js';

/** A journal that reports what the test says changed. */
function scriptedJournal() {
  const watched = new Set<string>();
  let next: JournalChanges | undefined = { folders: new Set(), paths: new Set(), renamed: new Set() };
  const journal: ChangeJournal = {
    healthy: true,
    watch: (folder) => (watched.add(folder), true),
    unwatchUnder: (folder) => {
      for (const path of [...watched]) if (path === folder || path.startsWith(`${folder}/`)) watched.delete(path);
    },
    sync: async () => {
      const changes = next;
      next = { folders: new Set(), paths: new Set(), renamed: new Set() };
      return changes;
    },
    close: () => undefined,
  };
  return { journal, watched, report: (changes: JournalChanges | undefined) => (next = changes) };
}

describe('the index store with a change journal', () => {
  let root = '';
  const parser = createSyntaxParser(nodeGrammarSource);
  const old = new Date(Date.now() - 3_600_000);
  const write = (path: string, text: string, aged = true) => {
    writeFileSync(join(root, path), text);
    if (aged) utimesSync(join(root, path), old, old);
  };
  const definitions = async (store: ReturnType<typeof createIndexStore>, query: string) => {
    const answer = await store.lookup({ query, caseSensitive: true, start: '', only: 'definition' });
    if (!answer.ready) throw new Error('not ready');
    return answer.files.map((file) => file.path).sort();
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'index-store-'));
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    write('src/a.ts', 'export function Alpha() {}\n');
    write('src/deep/b.ts', 'export function Beta() {}\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  afterAll(() => parser.dispose());

  it('watches every folder before listing it, and at a lookup checks only what the journal heard', async () => {
    const { journal, watched, report } = scriptedJournal();
    const store = createIndexStore({ root, parser, journal });
    await store.build();
    expect([...watched].sort()).toEqual(['', 'src', 'src/deep']);
    expect(store.stats()).toMatchObject({ watching: true, files: 2 });

    // An edit the journal did not report is not looked for: no stat of every file.
    write('src/a.ts', 'export function Gamma() {}\n', false);
    expect(await definitions(store, 'Gamma')).toEqual([]);
    report({ folders: new Set(), paths: new Set(['src/a.ts']), renamed: new Set() });
    expect(await definitions(store, 'Gamma')).toEqual(['src/a.ts']);

    // A new folder heard through its parent is walked and watched.
    mkdirSync(join(root, 'src/new'));
    write('src/new/c.ts', 'export function Gamma() {}\n');
    report({ folders: new Set(['src']), paths: new Set(['src/new']), renamed: new Set(['src/new']) });
    expect(await definitions(store, 'Gamma')).toEqual(['src/a.ts', 'src/new/c.ts']);
    expect(watched.has('src/new')).toBe(true);

    // A folder removed: forgotten with its files, and unwatched.
    rmSync(join(root, 'src/deep'), { recursive: true });
    report({ folders: new Set(['src']), paths: new Set(['src/deep']), renamed: new Set(['src/deep']) });
    expect(await definitions(store, 'Beta')).toEqual([]);
    expect(watched.has('src/deep')).toBe(false);
    expect(store.stats().files).toBe(2);
  });

  it('checks files with another hard link at every lookup, since a write through that link is heard nowhere here', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'index-store-link-'));
    try {
      linkSync(join(root, 'src/a.ts'), join(outside, 'a.ts'));
      const { journal } = scriptedJournal();
      const store = createIndexStore({ root, parser, journal });
      await store.build();
      writeFileSync(join(outside, 'a.ts'), 'export function Linked() {}\n');
      expect(await definitions(store, 'Linked')).toEqual(['src/a.ts']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('checks every file when the journal cannot vouch for a sync', async () => {
    const { journal, report } = scriptedJournal();
    const store = createIndexStore({ root, parser, journal });
    await store.build();
    write('src/deep/b.ts', 'export function Delta() {}\n', false);
    report(undefined);
    expect(await definitions(store, 'Delta')).toEqual(['src/deep/b.ts']);
  });

  it('reads a recent entry again once its mtime can vouch for it, not at every lookup', async () => {
    const { journal } = scriptedJournal();
    write('src/a.ts', 'export function Alpha() {}\n', false);
    const store = createIndexStore({ root, parser, journal });
    await store.build();
    const before = store.occurrences({ query: 'Alpha', caseSensitive: true, paths: ['src/a.ts'] });
    expect(before).toEqual([]);
    // The journal reports nothing, but recent entries are stat-ed at each lookup: its mtime moved, so it is read again.
    utimesSync(join(root, 'src/a.ts'), old, old);
    expect(await definitions(store, 'Alpha')).toEqual(['src/a.ts']);
    expect(store.occurrences({ query: 'Alpha', caseSensitive: true, paths: ['src/a.ts'] })).toHaveLength(1);
  });
});

describe('index lookups', () => {
  const parser = createSyntaxParser(nodeGrammarSource);
  afterAll(() => parser.dispose());

  it('keep to the folder and extensions asked for, in candidates and in the paths that hold the query', async () => {
    const root = mkdtempSync(join(tmpdir(), 'index-store-lookup-'));
    try {
      mkdirSync(join(root, 'src'));
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'src/widget.ts'), 'export function Widget() {}\nWidget();\n');
      writeFileSync(join(root, 'src/widget.py'), 'def Widget():\n    pass\n');
      writeFileSync(join(root, 'docs/widget.md'), 'Widget notes\n');
      const store = createIndexStore({ root, parser });
      await store.build();
      const named = (answer: Awaited<ReturnType<typeof store.lookup>>) =>
        answer.ready ? { files: answer.files.map((file) => file.path).sort(), paths: answer.paths?.sort() } : 'not ready';

      const request = { query: 'Widget', caseSensitive: false, start: '', paths: true };
      // Prose holds no identifiers: a definition or usage lookup names it only among the paths.
      expect(named(await store.lookup(request))).toEqual({
        files: ['src/widget.py', 'src/widget.ts'],
        paths: ['docs/widget.md', 'src/widget.py', 'src/widget.ts'],
      });
      expect(named(await store.lookup({ ...request, start: 'src', extensions: new Set(['ts']) }))).toEqual({
        files: ['src/widget.ts'],
        paths: ['src/widget.ts'],
      });
      expect(named(await store.lookup({ ...request, caseSensitive: true, extensions: new Set(['ts', 'py']), paths: false }))).toEqual({
        files: ['src/widget.py', 'src/widget.ts'],
        paths: undefined,
      });
      expect(named(await store.textLookup({ ...request, identifiers: false, extensions: new Set(['md', 'py']) }))).toEqual({
        files: ['docs/widget.md', 'src/widget.py'],
        paths: ['docs/widget.md', 'src/widget.py'],
      });
      expect(named(await store.textLookup({ ...request, identifiers: false, start: 'docs' }))).toEqual({
        files: ['docs/widget.md'],
        paths: ['docs/widget.md'],
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the index build', () => {
  const parser = createSyntaxParser(nodeGrammarSource);
  afterAll(() => parser.dispose());

  it('parses the grammar with the most files first and the rarest last, so the first parse of a rare grammar comes at the end', async () => {
    const root = mkdtempSync(join(tmpdir(), 'index-store-order-'));
    try {
      mkdirSync(join(root, 'ci'));
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'ci/build.sh'), 'cargo build\n');
      writeFileSync(join(root, 'ci/shim.c'), 'int shim(void) { return 0; }\n');
      writeFileSync(join(root, 'ci/test.sh'), 'cargo test\n');
      writeFileSync(join(root, 'README.md'), 'Alpha\n');
      for (const name of ['a', 'b', 'c']) writeFileSync(join(root, `src/${name}.rs`), `fn ${name}() {}\n`);
      const parsed: string[] = [];
      const recording: SyntaxParser = {
        failures: parser.failures,
        parse: (grammar, text) => (parsed.push(grammar), parser.parse(grammar, text)),
        dispose: () => undefined,
      };
      const store = createIndexStore({ root, parser: recording });
      await store.build();
      expect(parsed).toEqual(['rust', 'rust', 'rust', 'bash', 'bash', 'c']);
      expect(store.stats()).toMatchObject({ files: 7 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
