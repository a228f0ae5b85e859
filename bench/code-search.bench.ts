// code_search latency on a large real tree (text files copied from node_modules) vs ripgrep (`rg -F`) in the same run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rgPath } from '@vscode/ripgrep';
import { approximateTokenizer, createMemorySpool, type ToolImplementation } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createCodeSearchTool } from '@toolhost/code-search';


const MAX_FILES = 20_000;
const EXTENSIONS = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx|py|rs|go|java|c|h|cc|cpp|hpp|sh|md|json|yml|yaml|toml)$/;
const WARM_RUNS = 5;
const COLD_RUNS = 3;

function buildCorpus(): { root: string; files: number; bytes: number } {
  const source = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules');
  const root = mkdtempSync(join(tmpdir(), 'code-search-bench-'));
  let files = 0;
  let bytes = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files >= MAX_FILES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && EXTENSIONS.test(entry.name)) {
        const target = join(root, relative(source, path));
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(path, target);
        files++;
        bytes += statSync(path).size;
      }
    }
  };
  visit(source);
  return { root, files, bytes };
}

function timeRg(root: string, args: string[]): { ms: number; lines: number } {
  const started = performance.now();
  const result = spawnSync(rgPath, args, { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' });
  const ms = performance.now() - started;
  return { ms, lines: result.stdout.split('\n').filter(Boolean).length };
}

async function timeTool(tool: ToolImplementation, root: string, args: Record<string, unknown>): Promise<{ ms: number; results: number }> {
  const workspace = createNodeWorkspace(root);
  const parsed = tool.schema.parse(args);
  const started = performance.now();
  const result = await tool.execute(parsed, {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 10_000,
    shell: 'unix_like',
    signal: new AbortController().signal,
  });
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(result.output);
  return { ms, results: (result.data?.results as unknown[]).length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function (): Promise<void> {
  const corpus = buildCorpus();
  console.log(`corpus: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(1)} MB (copied from node_modules) at ${corpus.root}`);
  const queries: Array<{ label: string; args: Record<string, unknown>; rg: string[] }> = [
    { label: 'text, rare literal (full scan)', args: { query: 'xyzzy_absent_literal', result_types: ['text'] }, rg: ['-F', '-n', 'xyzzy_absent_literal'] },
    { label: 'text, common literal', args: { query: 'Licensed under', result_types: ['text'], max_results: 100 }, rg: ['-F', '-n', 'Licensed under'] },
    { label: 'definition createSourceFile', args: { query: 'createSourceFile', result_types: ['definition'] }, rg: ['-F', '-n', 'createSourceFile'] },
    { label: 'definition TokenFlags (mixed)', args: { query: 'TokenFlags' }, rg: ['-F', '-n', 'TokenFlags'] },
    { label: 'path "parser"', args: { query: 'parser', result_types: ['path'] }, rg: ['--files'] },
  ];
  try {
    const rows: string[][] = [];
    for (const mode of ['scan', 'ripgrep'] as const) {
      for (const query of queries) {
        const rgArgs = [...query.rg, '--no-config', '--hidden', '-g', '!.git', '.'];
        const rgCold = { ms: timeRg(corpus.root, rgArgs).ms };
        const rgWarm = median(Array.from({ length: WARM_RUNS }, () => timeRg(corpus.root, rgArgs).ms));
        // Cold: the first query of a fresh tool instance (grammar load, parse, empty cache); median of COLD_RUNS instances.
        const coldTimes: number[] = [];
        for (let run = 1; run < COLD_RUNS; run++) {
          const fresh = createCodeSearchTool({ prefilter: mode });
          coldTimes.push((await timeTool(fresh, corpus.root, query.args)).ms);
          await fresh.close?.();
        }
        const tool = createCodeSearchTool({ prefilter: mode });
        const first = await timeTool(tool, corpus.root, query.args);
        const cold = { ms: median([...coldTimes, first.ms]), results: first.results };
        const warmTimes: number[] = [];
        let results = cold.results;
        for (let run = 0; run < WARM_RUNS; run++) {
          const warm = await timeTool(tool, corpus.root, query.args);
          warmTimes.push(warm.ms);
          results = warm.results;
        }
        await tool.close?.();
        const warm = median(warmTimes);
        rows.push([
          mode,
          query.label,
          String(results),
          rgCold.ms.toFixed(0),
          rgWarm.toFixed(0),
          cold.ms.toFixed(0),
          warm.toFixed(0),
          (cold.ms / rgCold.ms).toFixed(2),
          (warm / rgWarm).toFixed(2),
        ]);
      }
    }
    const header = ['prefilter', 'query', 'results', 'rg cold ms', 'rg warm ms', 'cs cold ms', 'cs warm ms', 'cold ratio', 'warm ratio'];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
    const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
    console.log(line(header));
    console.log(line(widths.map((width) => '-'.repeat(width))));
    for (const row of rows) console.log(line(row));
    console.log(`cold = first query of a new tool instance (grammar load + parse), median of ${COLD_RUNS} instances; warm = median of ${WARM_RUNS} repeats on one instance.`);
    console.log('scan rows: warm includes the whole-result cache (the 2nd identical call searches and snapshots with a walk + stat of every file, calls 3+ only validate it); ripgrep rows: no result cache (rg is as cheap as the validation), every call runs rg -l and reuses parsed trees.');
    console.log(`rg cold = first rg run, rg warm = median of ${WARM_RUNS}; the OS page cache is warm for both (files were just copied). ratio = code_search / rg.`);
  } finally {
    rmSync(corpus.root, { recursive: true, force: true });
  }
}
