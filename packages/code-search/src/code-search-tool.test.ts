import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approximateTokenizer, createMemorySpool, createMemoryWorkspace, type ToolResult, type Workspace } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCodeSearchTool } from './code-search-tool.js';
import type { SearchHit } from './search-hit.js';

const FIXTURE = fileURLToPath(new URL('./__fixtures__/polyglot', import.meta.url));
const tool = createCodeSearchTool();
const scanTool = createCodeSearchTool({ prefilter: 'scan' });
afterAll(async () => {
  await tool.close?.();
  await scanTool.close?.();
});

function fixtureFiles(dir = FIXTURE, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(files, fixtureFiles(path, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = readFileSync(path, 'utf8');
  }
  return files;
}

async function searchWith(workspace: Workspace, args: Record<string, unknown>, using = tool): Promise<ToolResult> {
  const parsed = using.schema.safeParse(args);
  if (!parsed.success) throw new Error(parsed.error.message);
  return using.execute(parsed.data, {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 10_000,
    shell: 'unix_like',
    signal: new AbortController().signal,
  });
}

const brief = (hit: SearchHit) => `${hit.result_type} ${hit.path}:${hit.line}:${hit.column}`;
const hitsOf = (result: ToolResult) => (result.data?.results ?? []) as SearchHit[];

const DEFINITIONS = [
  'definition native/Gadget.java:2:14',
  'definition native/gadget.c:2:8',
  'definition native/gadget.c:7:26',
  'definition native/gadget.cpp:3:7',
  'definition native/gadget.go:4:6',
  'definition native/gadget.rs:2:12',
  'definition scripts/gadget.sh:3:1',
  'definition src/gadget.py:2:7',
  'definition src/gadget.ts:2:18',
  'definition src/legacy.js:2:7',
];
const USAGES = [
  'usage native/Gadget.java:5:19',
  'usage native/Gadget.java:6:20',
  'usage native/gadget.c:6:8',
  'usage native/gadget.c:7:19',
  'usage native/gadget.c:8:13',
  'usage native/gadget.cpp:9:7',
  'usage native/gadget.cpp:9:36',
  'usage native/gadget.go:8:13',
  'usage native/gadget.go:9:9',
  'usage native/gadget.rs:6:18',
  'usage native/gadget.rs:7:5',
  'usage scripts/gadget.sh:6:1',
  'usage src/gadget.py:8:12',
  'usage src/gadget.ts:5:44',
  'usage src/legacy.js:7:15',
  'usage src/legacy.js:8:20',
  'usage src/view.tsx:1:15',
  'usage src/view.tsx:2:43',
];
const TEXT = [
  'text docs/README.md:1:3',
  'text docs/README.md:3:6',
  'text docs/config.json:1:12',
  'text native/Gadget.java:1:4',
  'text native/gadget.c:1:4',
  'text native/gadget.cpp:1:4',
  'text native/gadget.go:3:4',
  'text native/gadget.rs:1:5',
  'text scripts/gadget.sh:2:3',
  'text scripts/gadget.sh:4:9',
  'text src/gadget.py:1:3',
  'text src/gadget.py:8:24',
  'text src/gadget.ts:1:4',
  'text src/gadget.ts:5:22',
  'text src/gadget.ts:6:18',
  'text src/legacy.js:1:6',
  'text src/view.tsx:2:17',
  'text src/view.tsx:3:22',
];
const PATHS = [
  'path native/Gadget.java:1:1',
  'path native/gadget.c:1:1',
  'path native/gadget.cpp:1:1',
  'path native/gadget.go:1:1',
  'path native/gadget.rs:1:1',
  'path scripts/gadget.sh:1:1',
  'path src/gadget.py:1:1',
  'path src/gadget.ts:1:1',
];

const workspaces: Array<[string, () => Workspace, typeof tool]> = [
  ['disk, ripgrep prefilter', () => createNodeWorkspace(FIXTURE), tool],
  ['disk, pure-JS scan', () => createNodeWorkspace(FIXTURE), scanTool],
  ['memory', () => createMemoryWorkspace(fixtureFiles()), tool],
];

describe.each(workspaces)('code_search on the polyglot fixture (%s)', (_kind, makeWorkspace, using) => {
  const search = (workspace: Workspace, args: Record<string, unknown>) => searchWith(workspace, args, using);
  it('classifies definitions, usages, text and paths in every language, ordered by category, path, line, column', async () => {
    const result = await search(makeWorkspace(), { query: 'Gadget', max_results: 100 });
    expect(result.ok).toBe(true);
    // Paths follow smart case like content: 'Gadget' names Gadget.java, not gadget.py.
    expect(hitsOf(result).map(brief)).toEqual([...DEFINITIONS, ...USAGES, ...TEXT, 'path native/Gadget.java:1:1']);
    expect(result.data?.truncated).toBe(false);
    const definition = hitsOf(result)[0];
    expect(definition).toEqual({
      result_type: 'definition',
      path: 'native/Gadget.java',
      line: 2,
      column: 14,
      name: 'Gadget',
      snippet: 'public class Gadget {',
    });
    expect(result.output).toContain('definition src/gadget.ts:2:18 Gadget — export interface Gadget {');
    expect(result.output).toContain("text src/gadget.ts:6:18 — const label = 'Gadget in a string';");
    expect(result.output).toContain('path native/Gadget.java');
  });

  it('keeps names in comments and strings out of usages, and declarations out of usages', async () => {
    const hits = hitsOf(await search(makeWorkspace(), { query: 'Gadget', result_types: ['usage'], max_results: 100 }));
    expect(hits.map(brief)).toEqual(USAGES);
    const usageKeys = new Set(hits.map((hit) => `${hit.path}:${hit.line}:${hit.column}`));
    for (const entry of [...DEFINITIONS, ...TEXT]) expect(usageKeys.has(entry.split(' ')[1])).toBe(false);
  });

  it('recognises functions, methods and fields as definitions in each language', async () => {
    const functions = hitsOf(await search(makeWorkspace(), { query: 'make', result_types: ['definition'], max_results: 100 }));
    expect(functions.map(brief)).toEqual([
      'definition native/Gadget.java:5:26',
      'definition native/gadget.cpp:9:14',
      'definition native/gadget.go:8:6',
      'definition native/gadget.rs:6:8',
      'definition src/gadget.py:7:5',
    ]);
    const fields = hitsOf(await search(makeWorkspace(), { query: 'size', result_types: ['definition', 'usage'], max_results: 100 }));
    expect(fields.filter((hit) => hit.result_type === 'definition').map(brief)).toEqual([
      'definition native/Gadget.java:3:17',
      'definition native/gadget.c:3:9',
      'definition native/gadget.cpp:5:7',
      'definition native/gadget.go:5:2',
      'definition native/gadget.rs:3:9',
      'definition src/gadget.ts:3:3',
    ]);
    // Parameters, property accesses and object keys are usages.
    expect(fields.map(brief)).toContain('usage src/legacy.js:4:10');
    expect(fields.map(brief)).toContain('usage src/gadget.py:3:24');
    expect(fields.map(brief)).toContain('usage native/gadget.rs:7:14');
  });

  it('applies smart case: lower-case is case-insensitive, any upper-case letter case-sensitive', async () => {
    const insensitive = hitsOf(await search(makeWorkspace(), { query: 'gadget', result_types: ['definition'], max_results: 100 }));
    expect(insensitive.map(brief)).toEqual(DEFINITIONS);
    expect(insensitive.every((hit) => hit.name === 'Gadget')).toBe(true);
    const sensitive = hitsOf(await search(makeWorkspace(), { query: 'GADGET', max_results: 100 }));
    expect(sensitive.map(brief)).toEqual([]);
    // Paths follow smart case too: a lower-case query matches any case, an upper-case letter makes it case-sensitive.
    const anyCase = hitsOf(await search(makeWorkspace(), { query: 'gadget', result_types: ['path'], max_results: 100 }));
    expect(anyCase.map(brief)).toEqual(PATHS);
    const exactCase = hitsOf(await search(makeWorkspace(), { query: 'Gadget', result_types: ['path'], max_results: 100 }));
    expect(exactCase.map(brief)).toEqual(['path native/Gadget.java:1:1']);
    const lowerText = hitsOf(await search(makeWorkspace(), { query: 'make_gadget', result_types: ['definition'] }));
    expect(lowerText.map(brief)).toEqual(['definition native/gadget.c:6:16']);
  });

  it('truncates at max_results and says so', async () => {
    const result = await search(makeWorkspace(), { query: 'Gadget', max_results: 3 });
    expect(hitsOf(result).map(brief)).toEqual(DEFINITIONS.slice(0, 3));
    expect(result.data?.truncated).toBe(true);
    expect(result.data?.hints).toEqual([expect.stringContaining('truncated: true — more results exist')]);
    expect(result.output).toContain('truncated');
  });

  it('limits by path (folder or file) and file_types (names and extensions)', async () => {
    const folder = hitsOf(await search(makeWorkspace(), { query: 'Gadget', path: 'native', result_types: ['definition'] }));
    expect(folder.map(brief)).toEqual(DEFINITIONS.filter((entry) => entry.includes(' native/')));
    const file = hitsOf(await search(makeWorkspace(), { query: 'Gadget', path: 'src/gadget.py', max_results: 100 }));
    expect(new Set(file.map((hit) => hit.path))).toEqual(new Set(['src/gadget.py']));
    const rust = hitsOf(await search(makeWorkspace(), { query: 'Gadget', file_types: ['rust', '.go'], max_results: 100 }));
    expect(new Set(rust.map((hit) => hit.path))).toEqual(new Set(['native/gadget.rs', 'native/gadget.go']));
    const ts = hitsOf(await search(makeWorkspace(), { query: 'Gadget', file_types: ['ts'], result_types: ['definition'] }));
    expect(ts.map(brief)).toEqual(['definition src/gadget.ts:2:18']);
    const paths = hitsOf(await search(makeWorkspace(), { query: 'gadget.c', result_types: ['path'] }));
    expect(paths.map(brief)).toEqual(['path native/gadget.c:1:1', 'path native/gadget.cpp:1:1']);
  });

  it('rejects unknown file types and paths outside the workspace with fixable errors', async () => {
    const unknown = await search(makeWorkspace(), { query: 'Gadget', file_types: ['cobolx'] });
    expect(unknown.ok).toBe(false);
    expect(unknown.error?.code).toBe('invalid_arguments');
    expect(unknown.error?.message).toContain('"cobolx"');
    expect(unknown.error?.message).toContain('typescript');
    const outside = await search(makeWorkspace(), { query: 'Gadget', path: '../elsewhere' });
    expect(outside.error?.code).toBe('outside_workspace');
    const missing = await search(makeWorkspace(), { query: 'Gadget', path: 'nope' });
    expect(missing.error?.code).toBe('invalid_arguments');
  });
});

const search = (workspace: Workspace, args: Record<string, unknown>) => searchWith(workspace, args);

describe('walk rules', () => {
  const files = {
    '.gitignore': 'build/\n*.log\n',
    'src/a.ts': 'export const needle = 1;\n',
    'src/.gitignore': 'secret.ts\n!keep.log\n',
    'src/secret.ts': 'export const needle = 2;\n',
    'src/keep.log': 'needle kept\n',
    'src/drop.log': 'needle dropped\n',
    'build/out.js': 'const needle = 3;\n',
    '.git/config': 'needle in git\n',
    'notes.md': 'a needle in prose\n',
  };

  it('honours nested .gitignore files, skips .git, binary files and symlinks (memory workspace)', async () => {
    const workspace = createMemoryWorkspace({ ...files, 'image.bin': new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]) });
    workspace.symlink('link.ts', 'src/a.ts');
    const hits = hitsOf(await search(workspace, { query: 'needle', max_results: 100 }));
    expect(hits.map(brief)).toEqual(['definition src/a.ts:1:14', 'text notes.md:1:3', 'text src/keep.log:1:1']);
  });

  describe('disk workspace', () => {
    let root = '';
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'code-search-'));
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      writeFileSync(join(root, 'image.bin'), Buffer.from([110, 101, 101, 100, 108, 101, 0, 1]));
      symlinkSync(join(root, 'src'), join(root, 'linked'));
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it.each([
      ['ripgrep prefilter', tool],
      ['pure-JS scan', scanTool],
    ])('honours the same rules on disk (%s)', async (_label, using) => {
      const workspace = createNodeWorkspace(root);
      const hits = hitsOf(await searchWith(workspace, { query: 'needle', max_results: 100 }, using));
      expect(hits.map(brief)).toEqual(['definition src/a.ts:1:14', 'text notes.md:1:3', 'text src/keep.log:1:1']);
      const content = hitsOf(await searchWith(workspace, { query: 'needle', result_types: ['text'], max_results: 100 }, using));
      expect(content.map(brief)).toEqual(['text notes.md:1:3', 'text src/keep.log:1:1']);
    });

    it('searches an explicitly requested ignored folder', async () => {
      const hits = hitsOf(await search(createNodeWorkspace(root), { query: 'needle', path: 'build' }));
      expect(hits.map(brief)).toEqual(['definition build/out.js:1:7']);
    });

    it('reuses a whole result while no file changed, and searches again after an edit', async () => {
      const past = new Date(Date.now() - 60_000);
      const age = () => {
        for (const path of [...Object.keys(files), 'image.bin']) utimesSync(join(root, path), past, past);
      };
      age();
      let prefilterCalls = 0;
      const counting = createCodeSearchTool({
        resultCache: true,
        prefilter: async () => {
          prefilterCalls++;
          return undefined;
        },
      });
      try {
        const workspace = createNodeWorkspace(root);
        const args = { query: 'needle', result_types: ['definition', 'text'] };
        const first = await searchWith(workspace, args, counting);
        // The second identical call searches again and snapshots the workspace; the third is served from the cache.
        const second = await searchWith(workspace, args, counting);
        const third0 = await searchWith(workspace, args, counting);
        expect(prefilterCalls).toBe(2);
        expect(second).toEqual(first);
        expect(third0).toEqual(first);
        writeFileSync(join(root, 'notes.md'), 'a needle and another needle\n');
        age();
        const third = await searchWith(workspace, args, counting);
        expect(prefilterCalls).toBe(3);
        expect(hitsOf(third).map(brief)).toContain('text notes.md:1:22');
        const other = await searchWith(workspace, { ...args, result_types: ['text'] }, counting);
        expect(prefilterCalls).toBe(4);
        expect(hitsOf(other).length).toBeGreaterThan(0);
      } finally {
        await counting.close?.();
      }
    });

    it('reuses parsed trees on a second query and sees edits', async () => {
      const workspace = createNodeWorkspace(root);
      const first = hitsOf(await search(workspace, { query: 'needle', path: 'src', result_types: ['definition'] }));
      expect(first.map(brief)).toEqual(['definition src/a.ts:1:14']);
      writeFileSync(join(root, 'src/a.ts'), '// moved\nexport const needle = 10;\n');
      const second = hitsOf(await search(workspace, { query: 'needle', path: 'src', result_types: ['definition'] }));
      expect(second.map(brief)).toEqual(['definition src/a.ts:2:14']);
    });
  });
});

describe('hints', () => {
  it('says when definitions are unavailable for a language without a grammar, and for non-identifier queries', async () => {
    const workspace = createMemoryWorkspace({ 'lib/a.rb': 'class Widget\nend\n', 'x.ts': 'const a = "foo bar";\n' });
    const ruby = await search(workspace, { query: 'Widget' });
    expect(hitsOf(ruby).map(brief)).toEqual(['text lib/a.rb:1:7']);
    expect(ruby.data?.hints).toEqual([expect.stringContaining('ruby (1 file)')]);
    const phrase = await search(workspace, { query: 'foo bar' });
    expect(hitsOf(phrase).map(brief)).toEqual(['text x.ts:1:12']);
    expect(phrase.data?.hints).toEqual([expect.stringContaining('not an identifier')]);
  });

  it('searches files over 2 MB as text only', async () => {
    const big = `const Huge = 1;\n${'// filler line\n'.repeat(150_000)}`;
    const result = await search(createMemoryWorkspace({ 'big.ts': big }), { query: 'Huge' });
    expect(hitsOf(result).map(brief)).toEqual(['text big.ts:1:7']);
    expect(result.data?.hints).toEqual([expect.stringContaining('over 2 MB')]);
  });

  it('keeps both hints when text has already overflowed and files past it are skipped unread', async () => {
    const files: Record<string, string> = {
      'a.md': '# Huge\n\nHuge Huge Huge\n',
      'b.txt': 'Huge notes\n',
      'lib/c.rb': 'class Huge\nend\n',
      'x/big.ts': `const Huge = 1;\n${'// filler line\n'.repeat(150_000)}`,
      'z/prose.md': 'Huge again\n',
      'z/use.ts': 'export const Huge = 2;\nHuge;\n',
    };
    const result = await search(createMemoryWorkspace(files), { query: 'Huge', max_results: 2 });
    expect(hitsOf(result).map(brief)).toEqual(['definition z/use.ts:1:14', 'usage z/use.ts:2:1']);
    expect(result.data?.truncated).toBe(true);
    expect(result.data?.hints).toEqual([
      expect.stringContaining('more results exist'),
      expect.stringContaining('ruby (1 file)'),
      '1 matching file is over 2 MB and was searched as text only.',
    ]);
  });

  it('reports no results plainly', async () => {
    const result = await search(createMemoryWorkspace({ 'a.ts': 'x' }), { query: 'absent' });
    expect(result.ok).toBe(true);
    expect(result.output).toBe('No results for "absent".');
    expect(result.data).toEqual({ results: [], truncated: false, hints: [] });
  });
});

describe('definition searches through ripgrep’s matching lines', () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  let root = '';
  const lined = createCodeSearchTool({ index: false });
  const scanned = createCodeSearchTool({ index: false, prefilter: 'scan' });
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'code-search-lines-'));
    const write = (path: string, content: string | Uint8Array) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), content);
    };
    for (const [path, content] of Object.entries(fixtureFiles())) write(`fixture/${path}`, content);
    for (const name of readdirSync(here)) if (name.endsWith('.ts')) write(`sources/${name}`, readFileSync(join(here, name)));
    // Files whose matching lines never declare the name, beside files that do in ways a line shows poorly.
    write('only/imports.py', 'from m import Gadget, other\nimport Gadget\nx = Gadget(1)\nx = Gadget.y\n');
    // One line of a bracketed list cannot tell an import from a target: read, and found to declare nothing.
    write('kept/imports.py', 'from m import (\n    Gadget,\n    other,\n)\n');
    write('only/calls.go', 'package p\n\nfunc f() {\n\tio.Copy(&buf, NewGadget(s))\n\tx := T{NewGadget(s)}\n\t// NewGadget\n}\n');
    write('only/docs.rs', '/// See [`Gadget`].\nfn f() { assert!((Gadget(x))); }\nuse a::{Gadget, b};\n');
    write('only/big.ts', `x.Gadget;\n${'// filler line\n'.repeat(150_000)}`);
    write('kept/crlf.py', 'x = 1\r\nGadget = 2\r\n');
    write('kept/bom.py', '\ufeffGadget = 1\n');
    write('kept/long.js', `${'var a = 1; '.repeat(500)}function Gadget() {}\n`);
    write('kept/tuple.py', '(\n    first,\n    Gadget,\n) = pair\n');
    write('kept/notes.rb', 'class Gadget\nend\n');
    write('kept/joined.py', 'def \\\n    Gadget(x):\n    pass\n');
    write('only/types.rs', 'fn f(x: &mut Gadget) -> Vec<Gadget> { let v: [Gadget; 2] = g::<Gadget<u8>>(); }\n');
    write('kept/image.bin', Buffer.from([71, 97, 100, 103, 101, 116, 0, 1]));
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await lined.close();
    await scanned.close();
  });

  it('answers as the pure-JS scan does, and reads only the files where a matching line may declare the name', async () => {
    const queries = [
      'Gadget',
      'gadget',
      'NewGadget',
      'mayBeDeclarationName',
      'createLiteralMatcher',
      'SearchHit',
      'languageOfPath',
      'grammar',
      'text',
      'Huge',
    ];
    let skipped = 0;
    for (const query of queries) {
      for (const resultTypes of [['definition'], ['definition', 'path']]) {
        const args = { query, result_types: resultTypes, max_results: 100 };
        const reads: string[] = [];
        const disk = createNodeWorkspace(root);
        const counted: Workspace = { ...disk, readFile: (path: string) => (reads.push(path), disk.readFile(path)) };
        const viaLines = await searchWith(counted, args, lined);
        const viaScan = await searchWith(createNodeWorkspace(root), args, scanned);
        expect(viaLines.data, `${query} ${resultTypes.join(',')}`).toEqual(viaScan.data);
        expect(viaLines.output).toBe(viaScan.output);
        if (query === 'Gadget') {
          expect(reads.filter((path) => path.startsWith('only/'))).toEqual([]);
          for (const path of ['kept/crlf.py', 'kept/bom.py', 'kept/long.js', 'kept/tuple.py', 'kept/notes.rb', 'kept/joined.py'])
            expect(reads).toContain(path);
          expect(hitsOf(viaLines).map(brief)).toContain('definition kept/joined.py:2:5');
          expect(viaLines.data?.hints).toEqual(
            expect.arrayContaining([expect.stringContaining('over 2 MB'), expect.stringContaining('ruby (1 file)')]),
          );
        }
        const found = await scannedCount(query);
        skipped += found - new Set(reads).size;
      }
    }
    // Files holding the query that were never read, over all the searches above (30 when written).
    expect(skipped).toBeGreaterThan(20);
  });

  /** How many files hold the query at all (what a search without the line check reads). */
  async function scannedCount(query: string): Promise<number> {
    const holding = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce((count, entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return count + holding(path);
        const content = readFileSync(path, 'latin1');
        const sensitive = query !== query.toLowerCase();
        return count + ((sensitive ? content : content.toLowerCase()).includes(query) ? 1 : 0);
      }, 0);
    return holding(root);
  }
});
