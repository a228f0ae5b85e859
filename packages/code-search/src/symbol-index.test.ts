import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approximateTokenizer, createMemorySpool, createMemoryWorkspace, type Workspace } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createCodeSearchTool, type CodeSearchTool } from './code-search-tool.js';
import { foldedWordTokens } from './identifier-extractor.js';
import { symbolIndexCacheFile } from './symbol-index.js';
import { threadCount as threads } from '../../../test/helpers/proc-scan.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'polyglot');
const encoder = new TextEncoder();

function context(workspace: Workspace) {
  return {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 50_000,
    shell: 'unix_like' as const,
    signal: new AbortController().signal,
  };
}

async function search(tool: CodeSearchTool, workspace: Workspace, args: Record<string, unknown>): Promise<string> {
  const result = await tool.execute(tool.schema.parse({ max_results: 100, ...args }), context(workspace));
  expect(result.ok).toBe(true);
  return result.output;
}

/** A disk workspace that records which files were read. */
function recordingWorkspace(root: string): { workspace: Workspace; reads: string[] } {
  const inner = createNodeWorkspace(root);
  const reads: string[] = [];
  const workspace: Workspace = Object.create(inner);
  workspace.readFile = (path) => {
    reads.push(path);
    return inner.readFile(path);
  };
  return { workspace, reads };
}

function words(root: string): string[] {
  const found = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else for (const word of readFileSync(path, 'utf8').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) found.add(word);
    }
  };
  visit(root);
  return [...found].sort();
}

function allFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(path);
      else found.push(path);
    }
  };
  visit('');
  return found.sort();
}

describe('the symbol index behind code_search', () => {
  let root = '';
  let cacheDir = '';
  const tools: CodeSearchTool[] = [];
  const indexed = (options: Parameters<typeof createCodeSearchTool>[0] = {}) => {
    const tool = createCodeSearchTool({ index: { cacheDir }, ...options });
    tools.push(tool);
    return tool;
  };
  const scan = () => {
    const tool = createCodeSearchTool({ index: false });
    tools.push(tool);
    return tool;
  };
  const ready = async (tool: CodeSearchTool, workspace: Workspace) => {
    tool.prepare(workspace);
    expect(await tool.symbolIndex!.ready).toBe(true);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'symbol-index-'));
    cacheDir = mkdtempSync(join(tmpdir(), 'symbol-index-cache-'));
    cpSync(FIXTURE, root, { recursive: true });
    // Files written just now are re-read at every check (their mtime cannot vouch for them yet); age the copies.
    const old = new Date(Date.now() - 3_600_000);
    const age = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) age(join(dir, entry.name));
        else utimesSync(join(dir, entry.name), old, old);
      }
    };
    age(root);
  });
  afterEach(async () => {
    await Promise.all(tools.splice(0).map((tool) => tool.close()));
    rmSync(root, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it(
    'answers every word of the fixture exactly as the scan does, reading only files that hold the identifier',
    { timeout: 120_000 },
    async () => {
      const { workspace, reads } = recordingWorkspace(root);
      const tool = indexed();
      const baseline = scan();
      await ready(tool, workspace);
      const queries = words(root).flatMap((word, index) => (index % 4 === 0 ? [word, word.toLowerCase()] : [word]));
      for (const [index, query] of queries.entries()) {
        const kinds = index % 8 === 0 ? [['definition'], ['usage'], ['definition', 'usage'], ['text']] : [['definition', 'usage']];
        for (const result_types of index % 3 === 0 ? [...kinds, ['definition', 'usage', 'text', 'path']] : kinds) {
          const args = { query, result_types };
          expect(await search(tool, workspace, args), JSON.stringify(args)).toBe(await search(baseline, createNodeWorkspace(root), args));
        }
        const narrowed = { query, result_types: ['definition', 'usage'], path: 'native', file_types: ['java', 'c'] };
        if (index % 4 === 0)
          expect(await search(tool, workspace, narrowed)).toBe(await search(baseline, createNodeWorkspace(root), narrowed));
        const narrowedText = { ...narrowed, result_types: ['text', 'path'] };
        if (index % 8 === 0)
          expect(await search(tool, workspace, narrowedText)).toBe(await search(baseline, createNodeWorkspace(root), narrowedText));
      }
      // Definitions and usages come from the index: prose and strings-only files are never opened for them.
      reads.length = 0;
      await search(tool, workspace, { query: 'Gadget', result_types: ['definition', 'usage'] });
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.filter((path) => path.endsWith('.md') || path.endsWith('.json'))).toEqual([]);
      // One kind alone: files holding only the other kind are not opened either.
      for (const kind of ['definition', 'usage']) {
        reads.length = 0;
        const output = await search(tool, workspace, { query: 'Gadget', result_types: [kind] });
        const shown = new Set([...output.matchAll(new RegExp(`^${kind} (\\S+?):\\d+:\\d+`, 'gm'))].map((match) => match[1]));
        expect(shown.size, kind).toBeGreaterThan(0);
        expect([...new Set(reads)].sort(), kind).toEqual([...shown].sort());
      }
      // Text comes from the trigram filters: only files holding the literal are opened, prose included.
      for (const query of ['return', 'Gadget(', 'gadget']) {
        reads.length = 0;
        await search(tool, workspace, { query, result_types: ['text'], max_results: 100 });
        const holding = allFiles(root).filter((path) => readFileSync(join(root, path), 'utf8').toLowerCase().includes(query.toLowerCase()));
        expect([...new Set(reads)].sort(), query).toEqual(holding);
      }
      const stats = await tool.symbolIndex!.stats();
      expect(stats).toMatchObject({ ready: true, fromCache: false, files: 12, parsed: 10 });
    },
  );

  it('truncates to the first results of the full answer, index or scan, whatever files it skips unread', { timeout: 120_000 }, async () => {
    const workspace = createNodeWorkspace(root);
    const tool = indexed();
    const baseline = scan();
    await ready(tool, workspace);
    const data = async (searcher: CodeSearchTool, args: Record<string, unknown>) => {
      const result = await searcher.execute(searcher.schema.parse(args), context(workspace));
      return result.data as { results: unknown[]; truncated: boolean };
    };
    const queries = [...words(root).filter((_, index) => index % 10 === 0), 'gadget', 'return', 'the', 'Gadget('];
    for (const query of queries) {
      for (const result_types of [undefined, ['definition', 'usage', 'text'], ['definition', 'text'], ['usage', 'text']]) {
        const full = await data(baseline, { query, result_types, max_results: 100 });
        expect(full.truncated).toBe(false);
        for (const max_results of [1, 2, 3]) {
          const expected = { results: full.results.slice(0, max_results), truncated: full.results.length > max_results };
          for (const searcher of [tool, baseline]) {
            const limited = await data(searcher, { query, result_types, max_results });
            expect(
              { results: limited.results, truncated: limited.truncated },
              JSON.stringify({ query, result_types, max_results }),
            ).toEqual(expected);
          }
        }
      }
    }
  });

  it.each([
    ['heard from the file system', true],
    ['found by stat-ing every file', false],
  ])(
    'never answers from a stale entry: edits, new files, renames, deletions and .gitignore changes behind the host are seen at once (%s)',
    { timeout: 60_000 },
    async (_label, watch) => {
      const workspace = createNodeWorkspace(root);
      const tool = indexed({ index: { cacheDir, watch } });
      const baseline = scan();
      await ready(tool, workspace);
      expect(await tool.symbolIndex!.stats()).toMatchObject({ watching: watch });
      const same = async (query: string) => {
        for (const result_types of [
          ['definition'],
          ['usage'],
          ['definition', 'usage'],
          ['text'],
          ['definition', 'usage', 'text', 'path'],
        ]) {
          const args = { query, result_types };
          const answer = await search(tool, workspace, args);
          expect(answer, `${query} ${result_types.join(',')}`).toBe(await search(baseline, workspace, args));
        }
        return search(tool, workspace, { query, result_types: ['definition'] });
      };
      expect(await same('Widget')).toContain('No results');

      writeFileSync(join(root, 'src/gadget.ts'), `${readFileSync(join(root, 'src/gadget.ts'), 'utf8')}export class Widget {}\n`);
      expect(await same('Widget')).toContain('definition src/gadget.ts');

      writeFileSync(join(root, 'src/extra.py'), 'def Widget():\n    return Gadget()\n');
      expect(await same('Widget')).toContain('definition src/extra.py:1:5');

      renameSync(join(root, 'src/extra.py'), join(root, 'native/moved.py'));
      const moved = await same('Widget');
      expect(moved).toContain('definition native/moved.py:1:5');
      expect(moved).not.toContain('src/extra.py');

      mkdirSync(join(root, 'deep/er'), { recursive: true });
      writeFileSync(join(root, 'deep/er/new.rs'), 'fn Widget() {}\n');
      expect(await same('Widget')).toContain('definition deep/er/new.rs:1:4');

      writeFileSync(join(root, '.gitignore'), 'deep/\n');
      expect(await same('Widget')).not.toContain('deep/er/new.rs');
      rmSync(join(root, '.gitignore'));
      expect(await same('Widget')).toContain('deep/er/new.rs');

      rmSync(join(root, 'native/moved.py'));
      expect(await same('Widget')).not.toContain('moved.py');

      // Same size, same mtime: only the racy-entry rule can tell the content changed.
      const file = join(root, 'deep/er/new.rs');
      const { mtime } = statSync(file);
      writeFileSync(file, 'fn Wodget() {}\n');
      utimesSync(file, mtime, mtime);
      expect(await same('Widget')).not.toContain('new.rs');
      expect(await same('Wodget')).toContain('definition deep/er/new.rs:1:4');

      rmSync(join(root, 'deep'), { recursive: true });
      expect(await same('Wodget')).toContain('No results');

      // More changes than a search re-reads itself: it scans while the index catches up, and is right either way.
      mkdirSync(join(root, 'many'));
      for (let index = 0; index < 80; index++)
        writeFileSync(join(root, `many/m${index}.go`), `package many\n\nfunc Many${index % 2}() {}\n`);
      expect(await same('Many1')).toContain('40 results');
      expect(await same('Many0')).toContain('definition many/m0.go:3:6');

      // A folder moved with its files, then one of them edited: the old place is gone, the new one is current.
      renameSync(join(root, 'many'), join(root, 'moved'));
      writeFileSync(join(root, 'moved/m3.go'), 'package many\n\nfunc Many2() {}\n');
      expect(await same('Many2')).toContain('definition moved/m3.go:3:6');
      expect(await same('Many0')).not.toContain('many/m0.go');
      expect(await same('Many0')).toContain('definition moved/m0.go:3:6');

      // A folder removed and made again under the same name: its new files are found, and so are later ones.
      rmSync(join(root, 'native'), { recursive: true });
      mkdirSync(join(root, 'native'));
      writeFileSync(join(root, 'native/again.go'), 'package native\n\nfunc Again() {}\n');
      expect(await same('Again')).toContain('definition native/again.go:3:6');
      writeFileSync(join(root, 'native/later.go'), 'package native\n\nfunc Again2() {}\n');
      expect(await same('Again2')).toContain('definition native/later.go:3:6');
      expect(await tool.symbolIndex!.stats()).toMatchObject({ watching: watch });
    },
  );

  it('persists the index so a new tool on the same folder starts warm, and sees what changed while none ran', async () => {
    const workspace = createNodeWorkspace(root);
    const first = indexed();
    await ready(first, workspace);
    await first.close();
    const file = await symbolIndexCacheFile(root, cacheDir);
    expect(existsSync(file!)).toBe(true);

    writeFileSync(join(root, 'src/later.ts'), 'export function Widget() {}\n');
    const second = indexed();
    await ready(second, workspace);
    expect(await second.symbolIndex!.stats()).toMatchObject({ ready: true, fromCache: true });
    const args = { query: 'Widget', result_types: ['definition'] };
    expect(await search(second, workspace, args)).toContain('definition src/later.ts:1:17');
    expect(await search(second, workspace, args)).toBe(await search(scan(), workspace, args));
  });

  it('answers a query that arrives before the index is ready with the scan', async () => {
    const workspace = createNodeWorkspace(root);
    const tool = indexed();
    tool.prepare(workspace);
    let readyYet = false;
    void tool.symbolIndex!.ready.then(() => (readyYet = true));
    const args = { query: 'Gadget', result_types: ['definition', 'usage'] };
    const early = search(tool, workspace, args);
    expect(readyYet).toBe(false);
    expect(await early).toBe(await search(scan(), workspace, args));
  });

  it('stops its worker thread on close, leaving no thread behind', async () => {
    const workspace = createNodeWorkspace(root);
    // Warm up what the process starts once (the libuv pool, grammars), so only the index worker differs.
    await search(scan(), workspace, { query: 'Gadget' });
    const before = threads();
    const tool = indexed();
    await ready(tool, workspace);
    await search(tool, workspace, { query: 'Gadget', result_types: ['definition'] });
    expect(tool.symbolIndex!.running).toBe(true);
    expect(threads()).toBeGreaterThan(before);
    await tool.close();
    expect(tool.symbolIndex!.running).toBe(false);
    expect(threads()).toBe(before);
  });

  it('never indexes a remote workspace (one that searches where its files are), even when its root names a local folder', async () => {
    const local = createNodeWorkspace(root);
    const remote: Workspace = Object.create(local);
    remote.findFilesContaining = async () => undefined;
    const tool = indexed();
    tool.prepare(remote);
    expect(tool.symbolIndex).toBeUndefined();
    expect(await search(tool, remote, { query: 'Gadget', result_types: ['definition'] })).toBe(
      await search(scan(), local, { query: 'Gadget', result_types: ['definition'] }),
    );
    expect(tool.symbolIndex).toBeUndefined();
  });

  it('leaves in-memory workspaces to the scan', async () => {
    const files: Record<string, string> = { 'a.ts': 'export const Gadget = 1;\nGadget;\n' };
    const workspace = createMemoryWorkspace(files);
    const tool = indexed();
    tool.prepare(workspace);
    expect(tool.symbolIndex).toBeUndefined();
    expect(await search(tool, workspace, { query: 'Gadget' })).toContain('definition a.ts:1:14');
    await workspace.writeFile('b.ts', encoder.encode('Gadget;\n'));
    expect(await search(tool, workspace, { query: 'Gadget', result_types: ['usage'] })).toContain('usage b.ts:1:1');
    expect([...foldedWordTokens('a.b')]).toEqual(['A', 'B']);
  });
});
