// One code_search in a process of its own, for bench/code-search.bench.ts: nothing is loaded yet (parser runtime, grammars,
// optimised wasm), as in an agent's first call. Plain JavaScript run by plain node, so it loads the built packages (dist) as
// an installed copy does, with no TypeScript loader in the process. Prints the search's time in ms. Arguments: root, JSON
// arguments, delay in ms after the tool starts.
import { approximateTokenizer, createMemorySpool } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createCodeSearchTool } from '@toolhost/code-search';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [root, json, delay] = process.argv.slice(2);
const workspace = createNodeWorkspace(root);
const cacheDir = mkdtempSync(join(tmpdir(), 'code-search-bench-process-'));
const tool = createCodeSearchTool({ index: { cacheDir } });
try {
  tool.prepare(workspace);
  if (Number(delay) > 0) await new Promise((resolve) => setTimeout(resolve, Number(delay)));
  const started = performance.now();
  const signal = new AbortController().signal;
  await tool.execute(tool.schema.parse(JSON.parse(json)), {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 10_000,
    shell: 'unix_like',
    signal,
  });
  console.log((performance.now() - started).toFixed(1));
} finally {
  await tool.close();
  rmSync(cacheDir, { recursive: true, force: true });
}
