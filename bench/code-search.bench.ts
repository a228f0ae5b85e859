// code_search latency vs ripgrep (`rg -F`) in the same run, on real multi-language corpora: source from node_modules, and
// what CI installs from Debian packages (golang-src, rust-src, Python's own library). A missing corpus is skipped with a line
// saying how to install it. Also: where the cold time goes, and the symbol index's build time and memory at 10k and 50k files.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rgPath } from '@vscode/ripgrep';
import { approximateTokenizer, createMemorySpool, type Workspace } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import {
  createCodeSearchTool,
  createRipgrepPrefilter,
  createSyntaxParser,
  walkWorkspace,
  type CodeSearchTool,
  type GrammarId,
} from '@toolhost/code-search';

const WARM_RUNS = 5;
/** Processes started per query for the new-process figures (their median is shown). */
const NEW_PROCESS_RUNS = 3;
/** When the later "host first" search is asked, after the tool starts. */
const HOST_FIRST_DELAY_MS = 1500;
const NODE_MODULES_FILES = 20_000;
const SOURCE_EXTENSIONS = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx|py|rs|go|java|c|h|cc|cpp|hpp|sh|md|json|yml|yaml|toml)$/;
const here = dirname(fileURLToPath(import.meta.url));

interface Query {
  label: string;
  args: Record<string, unknown>;
  literal: string;
}
interface Corpus {
  name: string;
  /** Debian package or origin, for the skip line. */
  origin: string;
  root: () => string | undefined;
  queries: Query[];
}

const definition = (name: string): Query => ({
  label: `definition ${name}`,
  args: { query: name, result_types: ['definition'] },
  literal: name,
});
const usage = (name: string): Query => ({ label: `usage ${name}`, args: { query: name, result_types: ['usage'] }, literal: name });
const text = (literal: string): Query => ({ label: `text "${literal}"`, args: { query: literal, result_types: ['text'] }, literal });
const everything = (name: string): Query => ({ label: `all four ${name}`, args: { query: name }, literal: name });

function firstExisting(pattern: RegExp, parent: string, child = ''): string | undefined {
  if (!existsSync(parent)) return undefined;
  const match = readdirSync(parent)
    .filter((name) => pattern.test(name))
    .sort()
    .pop();
  const path = match ? join(parent, match, child) : undefined;
  return path && existsSync(path) ? path : undefined;
}

function copyNodeModules(): string {
  const source = join(here, '..', 'node_modules');
  const root = mkdtempSync(join(tmpdir(), 'code-search-bench-'));
  let files = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files >= NODE_MODULES_FILES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && SOURCE_EXTENSIONS.test(entry.name)) {
        const target = join(root, relative(source, path));
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(path, target);
        files++;
      }
    }
  };
  visit(source);
  return root;
}

const temporary: string[] = [];
const CORPORA: Corpus[] = [
  {
    name: 'javascript/typescript (node_modules)',
    origin: 'this repository after npm ci',
    root: () => {
      const root = copyNodeModules();
      temporary.push(root);
      return root;
    },
    queries: [
      definition('createSourceFile'),
      usage('createSourceFile'),
      text('Licensed under'),
      text('@deprecated'),
      everything('TokenFlags'),
    ],
  },
  {
    name: 'go (golang-src)',
    origin: 'apt-get install golang-src',
    root: () => firstExisting(/^go-1\.\d+$/, '/usr/share', 'src') ?? firstExisting(/^go-1\.\d+$/, '/usr/lib', 'src'),
    queries: [definition('NewReader'), usage('NewReader'), text('Copyright 2009'), text('golang.org/issue/'), everything('ReadFull')],
  },
  {
    name: 'rust (rust-src, library/)',
    origin: 'apt-get install rust-src',
    root: () => firstExisting(/^rustc-[\d.]+/, '/usr/src', 'library') ?? firstExisting(/^rustc-[\d.]+/, '/usr/src'),
    queries: [definition('from_utf8'), usage('from_utf8'), text('SAFETY:'), text('FIXME'), everything('Vec')],
  },
  {
    name: 'python (stdlib)',
    origin: 'the python3 package (/usr/lib/python3.x)',
    root: () => firstExisting(/^python3\.\d+$/, '/usr/lib'),
    queries: [definition('urlparse'), usage('urlparse'), text('deprecated'), text('XXX'), everything('TextIOWrapper')],
  },
];

function timeRg(root: string, literal: string): number {
  const started = performance.now();
  spawnSync(rgPath, ['-F', '-n', '--no-config', '--hidden', '-g', '!.git', '--', literal, '.'], { cwd: root, maxBuffer: 1 << 30 });
  return performance.now() - started;
}

function contextFor(workspace: Workspace) {
  return {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 10_000,
    shell: 'unix_like' as const,
    signal: new AbortController().signal,
  };
}

async function timeSearch(tool: CodeSearchTool, workspace: Workspace, args: Record<string, unknown>): Promise<number> {
  const parsed = tool.schema.parse(args);
  const started = performance.now();
  const result = await tool.execute(parsed, contextFor(workspace));
  if (!result.ok) throw new Error(result.output);
  return performance.now() - started;
}

async function repeat(run: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < WARM_RUNS; index++) times.push(await run());
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => value.toFixed(0);
const ratio = (value: number, base: number) => (value / base).toFixed(2);

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

/** Where the first search's time goes: runtime init, each grammar (first load in this process), walking, rg, parsing. */
async function coldBreakdown(root: string): Promise<void> {
  const parser = createSyntaxParser();
  const grammars: GrammarId[] = ['typescript', 'tsx', 'javascript', 'python', 'rust', 'go', 'java', 'c', 'cpp', 'bash'];
  const rows: string[][] = [];
  for (const grammar of grammars) {
    const started = performance.now();
    await parser.parse(grammar, '');
    rows.push([`load grammar ${grammar} (the first also starts web-tree-sitter)`, ms(performance.now() - started)]);
    const again = performance.now();
    await createSyntaxParser().parse(grammar, '');
    rows.push([`  same grammar from a second parser (loaded once per process)`, (performance.now() - again).toFixed(2)]);
  }
  const workspace = createNodeWorkspace(root);
  let started = performance.now();
  const files = await walkWorkspace(workspace, '');
  rows.push([`walk the corpus (${files.length} files, .gitignore honoured)`, ms(performance.now() - started)]);
  started = performance.now();
  const candidates = await createRipgrepPrefilter()({ workspace, query: 'createSourceFile', caseSensitive: true, start: '' });
  rows.push([`rg -l for "createSourceFile" (${candidates?.size ?? 0} files)`, ms(performance.now() - started)]);
  let parseMs = 0;
  let bytes = 0;
  for (const path of [...(candidates ?? [])].filter((file) => /\.(ts|js)$/.test(file))) {
    const source = new TextDecoder().decode(await workspace.readFile(path));
    if (source.length > 2 * 1024 * 1024) continue;
    bytes += source.length;
    const parseStarted = performance.now();
    (await parser.parse(path.endsWith('.ts') ? 'typescript' : 'javascript', source))?.delete();
    parseMs += performance.now() - parseStarted;
  }
  rows.push([`parse those candidates (${(bytes / 1e6).toFixed(1)} MB of source)`, ms(parseMs)]);
  parser.dispose();
  printTable(['cold step', 'ms'], rows);
}

let packagesBuilt = false;

/** The new-process rows run the built packages, as users do: they are built once, from the sources this bench measures. */
function buildPackages(): void {
  if (packagesBuilt) return;
  const build = spawnSync('npm', ['run', 'build', '-w', '@toolhost/core', '-w', '@toolhost/code-search'], {
    cwd: join(here, '..'),
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`building @toolhost/core and @toolhost/code-search failed:\n${build.stdout}\n${build.stderr}`);
  packagesBuilt = true;
}

/** The first search of a host in a process of its own (nothing loaded yet), asked `delayMs` after the host starts. */
function timeInNewProcess(root: string, args: Record<string, unknown>, delayMs: number): number {
  buildPackages();
  // Plain node, without this process's TypeScript loader and source condition: it would transpile every module of the
  // child (and of its index worker) as they load.
  const child = spawnSync(process.execPath, [join(here, 'code-search-first-process.mjs'), root, JSON.stringify(args), String(delayMs)], {
    encoding: 'utf8',
  });
  const value = Number.parseFloat(child.stdout.trim().split('\n').pop() ?? '');
  if (child.status !== 0 || !Number.isFinite(value)) throw new Error(`first-process search failed: ${child.stderr}`);
  return value;
}

async function benchCorpus(corpus: Corpus, root: string, rows: string[][], indexRows: string[][], processRows: string[][]): Promise<void> {
  const workspace = createNodeWorkspace(root);
  const cacheDir = mkdtempSync(join(tmpdir(), 'code-search-bench-cache-'));
  try {
    const rg = new Map<string, { cold: number; warm: number }>();
    for (const query of corpus.queries) {
      const cold = timeRg(root, query.literal);
      rg.set(query.label, { cold, warm: median(Array.from({ length: WARM_RUNS }, () => timeRg(root, query.literal))) });
    }
    // First search of a new host with nothing cached: the index starts building in the background and the search scans.
    const first = new Map<string, number>();
    for (const query of corpus.queries) {
      const tool = createCodeSearchTool({ index: false });
      first.set(query.label, await timeSearch(tool, workspace, query.args));
      await tool.close();
    }
    // The first search of a new host as it runs by default. Asked at once, it scans before the index worker starts; 1.5 s in
    // (about one model turn after the host starts) the index is building on a worker thread, so the search scans, the build
    // waits for it, and the worker takes a share of the files.
    const hostFirst = new Map<string, { atOnce: number; later: number }>();
    for (const query of corpus.queries) {
      const times = { atOnce: 0, later: 0 };
      for (const delay of [0, HOST_FIRST_DELAY_MS]) {
        const freshCache = mkdtempSync(join(tmpdir(), 'code-search-bench-host-'));
        const host = createCodeSearchTool({ index: { cacheDir: freshCache } });
        try {
          host.prepare(workspace);
          if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
          times[delay === 0 ? 'atOnce' : 'later'] = await timeSearch(host, workspace, query.args);
        } finally {
          await host.close();
          rmSync(freshCache, { recursive: true, force: true });
        }
      }
      hostFirst.set(query.label, times);
    }
    const building = createCodeSearchTool({ index: { cacheDir } });
    building.prepare(workspace);
    const whileBuilding = await timeSearch(building, workspace, corpus.queries[0].args);
    const buildStarted = performance.now();
    await building.symbolIndex!.ready;
    const buildWaitMs = performance.now() - buildStarted;
    const built = await building.symbolIndex!.stats();
    const repeated = new Map<string, number>();
    for (const query of corpus.queries) {
      await timeSearch(building, workspace, query.args);
      repeated.set(query.label, median(await repeat(() => timeSearch(building, workspace, query.args))));
    }
    await building.close();
    // A new host on the same folder: the index loads from the cache folder.
    const warmStart = createCodeSearchTool({ index: { cacheDir } });
    const loadStarted = performance.now();
    warmStart.prepare(workspace);
    await warmStart.symbolIndex!.ready;
    const loadMs = performance.now() - loadStarted;
    const warmFirst = new Map<string, number>();
    for (const query of corpus.queries) warmFirst.set(query.label, await timeSearch(warmStart, workspace, query.args));
    await warmStart.close();

    // The same first search in a process of its own, for the definition and usage queries (the kinds the symbol index serves).
    for (const query of corpus.queries.filter((entry) => /^(definition|usage) /.test(entry.label))) {
      const warm = rg.get(query.label)!.warm;
      const atOnce = median(Array.from({ length: NEW_PROCESS_RUNS }, () => timeInNewProcess(root, query.args, 0)));
      const later = median(Array.from({ length: NEW_PROCESS_RUNS }, () => timeInNewProcess(root, query.args, HOST_FIRST_DELAY_MS)));
      processRows.push([corpus.name, query.label, ms(warm), ms(atOnce), ratio(atOnce, warm), ms(later), ratio(later, warm)]);
    }

    for (const query of corpus.queries) {
      const base = rg.get(query.label)!;
      rows.push([
        corpus.name,
        query.label,
        ms(base.cold),
        ms(base.warm),
        ms(first.get(query.label)!),
        ratio(first.get(query.label)!, base.cold),
        ms(hostFirst.get(query.label)!.atOnce),
        ratio(hostFirst.get(query.label)!.atOnce, base.cold),
        ms(hostFirst.get(query.label)!.later),
        ratio(hostFirst.get(query.label)!.later, base.cold),
        ms(warmFirst.get(query.label)!),
        ratio(warmFirst.get(query.label)!, base.cold),
        ms(repeated.get(query.label)!),
        ratio(repeated.get(query.label)!, base.warm),
      ]);
    }
    indexRows.push([
      corpus.name,
      String(built?.files ?? 0),
      String(built?.parsed ?? 0),
      String(built?.occurrences ?? 0),
      ms(built?.buildMs ?? 0),
      `${((built?.heapUsedBytes ?? 0) / 1e6).toFixed(0)} MB + ${((built?.arrayBytes ?? 0) / 1e6).toFixed(0)} MB`,
      ms(loadMs),
      `${ms(whileBuilding)} (waited ${ms(buildWaitMs)} more for the build)`,
    ]);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/**
 * A tree of the first `count` files of the corpora, for the index scale figures: copies, since the index stats a
 * hard-linked file at every search (a write through its other name raises no event in the tree).
 */
function scaleTree(sources: string[], count: number): { root: string; files: number } {
  const root = mkdtempSync(join(tmpdir(), `code-search-scale-${count}-`));
  let files = 0;
  const visit = (source: string, dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files >= count) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(source, path, prefix);
      else if (entry.isFile()) {
        const target = join(root, prefix, relative(source, path));
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(path, target);
        files++;
      }
    }
  };
  sources.forEach((source, index) => visit(source, source, `corpus-${index}`));
  return { root, files };
}

async function benchScale(sources: string[], count: number, rows: string[][]): Promise<void> {
  const tree = scaleTree(sources, count);
  const cacheDir = mkdtempSync(join(tmpdir(), 'code-search-bench-cache-'));
  try {
    const workspace = createNodeWorkspace(tree.root);
    const tool = createCodeSearchTool({ index: { cacheDir } });
    tool.prepare(workspace);
    await tool.symbolIndex!.ready;
    const stats = await tool.symbolIndex!.stats();
    const query = { query: 'Read', result_types: ['definition', 'usage'] };
    await timeSearch(tool, workspace, query);
    const search = median(await repeat(() => timeSearch(tool, workspace, query)));
    const rg = median(Array.from({ length: WARM_RUNS }, () => timeRg(tree.root, 'Read')));
    await tool.close();
    const cacheBytes = readdirSync(cacheDir).reduce((sum, name) => sum + statSync(join(cacheDir, name)).size, 0);
    rows.push([
      String(tree.files),
      String(stats?.parsed ?? 0),
      String(stats?.occurrences ?? 0),
      `${((stats?.buildMs ?? 0) / 1000).toFixed(1)} s`,
      `${((stats?.heapUsedBytes ?? 0) / 1e6).toFixed(0)} MB + ${((stats?.arrayBytes ?? 0) / 1e6).toFixed(0)} MB`,
      `${(cacheBytes / 1e6).toFixed(0)} MB`,
      `${ms(search)} / ${ms(rg)} = ${ratio(search, rg)}`,
    ]);
  } finally {
    rmSync(tree.root, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

export default async function (): Promise<void> {
  const rows: string[][] = [];
  const indexRows: string[][] = [];
  const processRows: string[][] = [];
  const present: string[] = [];
  const only = process.env.CODE_SEARCH_BENCH_CORPORA?.split(',');
  try {
    for (const corpus of CORPORA) {
      if (only && !only.some((name) => corpus.name.includes(name))) continue;
      const root = corpus.root();
      if (!root) {
        console.log(`skipped ${corpus.name}: not installed (${corpus.origin})`);
        continue;
      }
      const files = (await walkWorkspace(createNodeWorkspace(root), '')).length;
      console.log(`corpus ${corpus.name}: ${files} files at ${root}`);
      if (present.length === 0) await coldBreakdown(root);
      present.push(root);
      await benchCorpus(corpus, root, rows, indexRows, processRows);
    }
    console.log('');
    printTable(
      [
        'corpus',
        'query',
        'rg cold ms',
        'rg warm ms',
        'scan alone ms',
        'scan alone / rg',
        'host first, at once ms',
        'at once / rg',
        `host first, ${HOST_FIRST_DELAY_MS / 1000} s in ms`,
        `${HOST_FIRST_DELAY_MS / 1000} s in / rg`,
        'first, warm cache ms',
        'warm cache / rg',
        'repeated ms',
        'repeated / rg',
      ],
      rows,
    );
    console.log(
      'scan alone = a new tool with nothing cached and no index (the scan on this thread). host first = the first search of a new tool with its default index (nothing cached), asked at once (the search scans, and the index worker starts once it ends) or ' +
        `${HOST_FIRST_DELAY_MS / 1000} s after the tool starts (the index is building on a worker thread: the build waits while the search scans, and the worker scans a share of the files).` +
        ` first, warm cache = the first search of a new tool whose index loaded from the cache folder.` +
        ` repeated = median of ${WARM_RUNS} on a tool whose index is built. rg cold = the first rg run, rg warm = median of ${WARM_RUNS}. ratio = code_search / rg.`,
    );
    console.log('');
    printTable(
      [
        'corpus',
        'query',
        'rg warm ms',
        'new process, at once ms',
        'at once / rg warm',
        `new process, ${HOST_FIRST_DELAY_MS / 1000} s in ms`,
        `${HOST_FIRST_DELAY_MS / 1000} s in / rg warm`,
      ],
      processRows,
    );
    console.log(
      `new process = the first search of a host in a node process of its own, where nothing is loaded yet (parser runtime, grammars, optimised wasm code), as an agent's first call, running the built packages as installed; median of ${NEW_PROCESS_RUNS} processes. The table above runs every tool in one process.`,
    );
    console.log('');
    printTable(
      [
        'corpus',
        'files',
        'parsed',
        'identifiers',
        'build ms',
        'worker heap + index arrays',
        'load from cache ms',
        'search while building ms',
      ],
      indexRows,
    );

    const scales = (process.env.CODE_SEARCH_BENCH_SCALES ?? '10000,50000')
      .split(',')
      .map(Number)
      .filter((value) => value > 0);
    // The Debian corpora whole (all of rustc, not only its library), then node_modules to make up the count.
    const scaleSources = [CORPORA[1].root(), firstExisting(/^rustc-[\d.]+/, '/usr/src'), CORPORA[3].root()].filter(
      (root): root is string => root !== undefined,
    );
    if (scales.length > 0) {
      console.log('');
      if (temporary.length === 0) temporary.push(copyNodeModules());
      const scaleRows: string[][] = [];
      for (const count of scales) await benchScale([...scaleSources, ...temporary], count, scaleRows);
      printTable(
        ['files', 'parsed', 'identifiers', 'index build', 'worker heap + index arrays', 'cache file', 'def+usage "Read": index / rg ms'],
        scaleRows,
      );
      console.log('The scale trees hold copies of the first N files of the corpora above, fewer when the corpora hold fewer.');
    }
  } finally {
    for (const root of temporary) rmSync(root, { recursive: true, force: true });
  }
}
