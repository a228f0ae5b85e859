import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryWorkspace, type Workspace } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { classifyOccurrences } from './classify-occurrences.js';
import { createSyntaxParser, type SyntaxParser } from './grammar-loader.js';
import { languageOfPath } from './language-table.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { createParseCache } from './parse-cache.js';
import { searchFiles } from './search-workspace.js';
import { SYNTAX_SPECS } from './syntax-spec.js';

describe('searchFiles', () => {
  const parser = createSyntaxParser();

  it('gives the event loop a turn every 200 ms of a long scan, though its reads and parses settle without one', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 8; i++) files[`f${i}.ts`] = `export const alpha${i} = alpha;\n`;
    const workspace = createMemoryWorkspace(files);
    await parser.parse('typescript', 'let loaded = 1;');
    // Each parse holds the thread for 90 ms, then settles in a microtask, as do the memory workspace's reads.
    const slow: SyntaxParser = {
      failures: parser.failures,
      parse: (grammar, text) => {
        const end = performance.now() + 90;
        while (performance.now() < end) {
          // Busy, as a long parse is.
        }
        return parser.parse(grammar, text);
      },
      dispose: () => undefined,
    };
    let turns = 0;
    let searching = true;
    const tick = () => {
      turns++;
      if (searching) setImmediate(tick);
    };
    setImmediate(tick);
    const outcome = await searchFiles(
      { matcher: createLiteralMatcher('alpha'), files: Object.keys(files), resultTypes: new Set(['usage'] as const), maxResults: 50 },
      { workspace, parser: slow, cache: createParseCache() },
    );
    searching = false;
    expect(outcome.stats.parsed).toBe(8);
    // 720 ms of parses: a turn once over 200 ms have passed since the last, before the fourth and the seventh file.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('tells Go, Rust and Python occurrences apart without a parse where a lexical scan is certain, exactly as the parse does', async () => {
    const files: Record<string, string> = {
      'a.go': 'package a\n\n// alpha in a comment\nfunc f() int { return b.alpha("alpha") + g(alpha) }\n',
      'b.rs': 'fn f() -> u8 {\n    /* alpha */ crate::alpha(r#"alpha"#) + g(alpha)\n}\n',
      'c.py': "import m\n\nx = m.alpha(\"alpha\")  # alpha\ny = f(alpha, '''alpha\n alpha''')\n",
      'd.py': 'def alpha():\n    return alpha()\n',
      'e.py': 'alpha, beta = pair\n',
    };
    const workspace = createMemoryWorkspace(files);
    const paths = Object.keys(files);
    const outcome = await searchFiles(
      {
        matcher: createLiteralMatcher('alpha'),
        files: paths,
        resultTypes: new Set(['definition', 'usage', 'text'] as const),
        maxResults: 50,
      },
      { workspace, parser, cache: createParseCache() },
    );
    // `def alpha` declares the name by its line; only e.py's tuple target needs the parse.
    expect(outcome.stats).toMatchObject({ scanned: 5, parsed: 1, lexical: 4 });
    const expected: string[] = [];
    for (const path of paths) {
      const grammar = languageOfPath(path)!.grammar!;
      const text = files[path]!;
      const starts = createLiteralMatcher('alpha').find(text);
      const tree = (await parser.parse(grammar, text))!;
      classifyOccurrences(SYNTAX_SPECS[grammar], tree, starts, 'alpha'.length).forEach((kind, at) =>
        expected.push(`${kind} ${path}@${starts[at]}`),
      );
      tree.delete();
    }
    const offset = (path: string, line: number, column: number) =>
      files[path]!.split('\n')
        .slice(0, line - 1)
        .join('\n').length +
      (line > 1 ? 1 : 0) +
      column -
      1;
    const found = outcome.results.map((hit) => `${hit.result_type} ${hit.path}@${offset(hit.path, hit.line, hit.column)}`);
    expect(found.sort()).toEqual(expected.sort());
    expect(found.filter((hit) => hit.startsWith('usage')).length).toBe(7);
    expect(found.filter((hit) => hit.startsWith('definition'))).toEqual(['definition d.py@4', 'definition e.py@0']);
  });

  it('shares files with another thread only when one may need a parse (a grammar with no lexical scan)', async () => {
    const asked: string[][] = [];
    const environment = (workspace: Workspace) => ({
      workspace,
      parser,
      cache: createParseCache(),
      assist: (paths: readonly string[]) => {
        asked.push([...paths]);
        return undefined;
      },
    });
    const search = (files: Record<string, string>) => {
      const workspace = createMemoryWorkspace(files);
      return searchFiles(
        {
          matcher: createLiteralMatcher('alpha'),
          files: Object.keys(files),
          resultTypes: new Set(['definition', 'usage'] as const),
          maxResults: 20,
        },
        environment(workspace),
      );
    };
    await search({ 'a.py': 'alpha = 1\n', 'b.rs': 'fn alpha() {}\n', 'c.go': 'package c\nfunc alpha() {}\n', 'd.md': 'alpha\n' });
    expect(asked).toEqual([]);
    await search({ 'a.py': 'alpha = 1\n', 'e.ts': 'export const alpha = 1;\n' });
    expect(asked).toEqual([['a.py', 'e.ts']]);
  });

  it('parses a file once and reuses the tree while mtime and size hold; re-parses after an edit', async () => {
    const workspace = createMemoryWorkspace({ 'a.ts': 'export function alpha() {}\nalpha();\n', 'b.md': 'alpha\n' });
    const cache = createParseCache();
    const request = {
      matcher: createLiteralMatcher('alpha'),
      files: ['a.ts', 'b.md'],
      resultTypes: new Set(['definition', 'usage', 'text'] as const),
      maxResults: 20,
    };
    const first = await searchFiles(request, { workspace, parser, cache });
    expect(first.stats).toEqual({ scanned: 2, parsed: 1, cachedTrees: 0, indexed: 0, assisted: 0, lexical: 0 });
    const second = await searchFiles({ ...request, matcher: createLiteralMatcher('alpha') }, { workspace, parser, cache });
    expect(second.stats).toEqual({ scanned: 2, parsed: 0, cachedTrees: 1, indexed: 0, assisted: 0, lexical: 0 });
    expect(second.results).toEqual(first.results);
    await workspace.writeFile('a.ts', new TextEncoder().encode('const alpha = 1;\n'));
    const third = await searchFiles(request, { workspace, parser, cache });
    expect(third.stats).toEqual({ scanned: 2, parsed: 1, cachedTrees: 0, indexed: 0, assisted: 0, lexical: 0 });
    expect(third.results.map((hit) => `${hit.result_type}:${hit.line}:${hit.column}`)).toEqual(['definition:1:7', 'text:1:1']);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('stops reading once the first requested category is over max_results, and reads only prefilter candidates', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, '0')}.md`] = 'beta beta\n';
    const workspace = createMemoryWorkspace(files);
    const request = {
      matcher: createLiteralMatcher('beta'),
      files: Object.keys(files).sort(),
      resultTypes: new Set(['text'] as const),
      maxResults: 3,
    };
    const outcome = await searchFiles(request, { workspace, parser, cache: createParseCache() });
    expect(outcome.results.map((hit) => `${hit.path}:${hit.column}`)).toEqual(['f00.md:1', 'f00.md:6', 'f01.md:1']);
    expect(outcome.truncated).toBe(true);
    expect(outcome.stats.scanned).toBe(2);
    const narrowed = await searchFiles({ ...request, candidates: new Set(['f07.md']) }, { workspace, parser, cache: createParseCache() });
    expect(narrowed.stats.scanned).toBe(1);
    expect(narrowed.results.map((hit) => hit.path)).toEqual(['f07.md', 'f07.md']);
    expect(narrowed.truncated).toBe(false);
  });

  it('answers after an early stop without waiting for reads ahead it no longer needs, leaving them to inFlight', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, '0')}.md`] = 'gamma\n';
    const inner = createMemoryWorkspace(files);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Every file after the first two is slow to read: the answer must not wait for them.
    const workspace: Workspace = {
      ...inner,
      readFile: async (path) => (path > 'f01.md' ? held.then(() => inner.readFile(path)) : inner.readFile(path)),
    };
    const inFlight = new Set<Promise<unknown>>();
    const request = {
      matcher: createLiteralMatcher('gamma'),
      files: Object.keys(files).sort(),
      resultTypes: new Set(['text'] as const),
      maxResults: 1,
    };
    const outcome = await searchFiles(request, { workspace, parser, cache: createParseCache(), inFlight });
    expect(outcome.results.map((hit) => hit.path)).toEqual(['f00.md']);
    expect(outcome.truncated).toBe(true);
    expect(inFlight.size).toBeGreaterThan(0);
    release();
    await Promise.all([...inFlight]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight.size).toBe(0);
  });

  it('does not read files over 2 MB that a prefilter named when only definitions or usages are wanted', async () => {
    const big = `const Huge = 1;\n${'// filler line\n'.repeat(150_000)}`;
    const workspace = createMemoryWorkspace({ 'big.ts': big, 'big2.ts': big, 'small.ts': 'const Huge = 2;\n' });
    let reads = 0;
    const counting = { ...workspace, readFile: (path: string) => (reads++, workspace.readFile(path)) };
    const outcome = await searchFiles(
      {
        matcher: createLiteralMatcher('Huge'),
        files: ['big.ts', 'big2.ts', 'small.ts'],
        resultTypes: new Set(['definition'] as const),
        maxResults: 20,
        candidates: new Set(['big.ts', 'big2.ts', 'small.ts']),
        candidatesExact: true,
      },
      { workspace: counting, parser, cache: createParseCache() },
    );
    expect(reads).toBe(1);
    expect(outcome.results.map((hit) => `${hit.path}:${hit.line}:${hit.column}`)).toEqual(['small.ts:1:7']);
    expect(outcome.hints).toEqual(['2 matching files are over 2 MB and were searched as text only.']);
  });

  it('does not parse when no occurrence can be a whole identifier', async () => {
    const workspace = createMemoryWorkspace({ 'a.ts': 'const gammaRay = 1; // gammas\n' });
    const outcome = await searchFiles(
      { matcher: createLiteralMatcher('gamma'), files: ['a.ts'], resultTypes: new Set(['usage', 'text'] as const), maxResults: 20 },
      { workspace, parser, cache: createParseCache() },
    );
    expect(outcome.stats.parsed).toBe(0);
    expect(outcome.results.map((hit) => `${hit.result_type}:${hit.column}`)).toEqual(['text:7', 'text:24']);
  });

  it('skips a file already found binary while its size and mtime hold, and reads it again once it changes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'binary-skip-'));
    try {
      const old = new Date(Date.now() - 3_600_000);
      writeFileSync(join(root, 'blob.bin'), Buffer.from('\0\0gamma\0'));
      writeFileSync(join(root, 'notes.txt'), 'gamma\n');
      for (const name of ['blob.bin', 'notes.txt']) utimesSync(join(root, name), old, old);
      const inner = createNodeWorkspace(root);
      const reads: string[] = [];
      const workspace: Workspace = Object.create(inner);
      workspace.readFile = (path) => {
        reads.push(path);
        return inner.readFile(path);
      };
      const binaries = new Map<string, { mtimeMs: number; size: number }>();
      const request = {
        matcher: createLiteralMatcher('gamma'),
        files: ['blob.bin', 'notes.txt'],
        resultTypes: new Set(['text'] as const),
        maxResults: 20,
      };
      const search = () => searchFiles(request, { workspace, parser, cache: createParseCache(), binaries });
      expect((await search()).results.map((hit) => hit.path)).toEqual(['notes.txt']);
      expect(binaries.has('blob.bin')).toBe(true);
      reads.length = 0;
      expect((await search()).results.map((hit) => hit.path)).toEqual(['notes.txt']);
      expect(reads).toEqual(['notes.txt']);
      writeFileSync(join(root, 'blob.bin'), 'gamma as text\n');
      expect((await search()).results.map((hit) => hit.path)).toEqual(['blob.bin', 'notes.txt']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
