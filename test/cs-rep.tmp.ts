import { mkdtempSync } from 'node:fs';
import { approximateTokenizer, createMemorySpool } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createCodeSearchTool } from '@toolhost/code-search';
const root = process.argv[2]!; const queries = JSON.parse(process.argv[3]!) as Record<string, unknown>[];
const workspace = createNodeWorkspace(root);
const ctx = () => ({ workspace, tokenizer: approximateTokenizer, spool: createMemorySpool(), maxOutputTokens: 10_000, shell: 'unix_like' as const, signal: new AbortController().signal });
const cacheDir = process.env.CACHE ?? mkdtempSync('/tmp/csrep-');
const tool = createCodeSearchTool({ index: { cacheDir } });
tool.prepare(workspace as never); await tool.symbolIndex!.ready;
for (const args of queries) {
  const times: number[] = []; let out = '';
  for (let i = 0; i < 6; i++) { const t = performance.now(); const r = await tool.execute(tool.schema.parse(args), ctx() as never); out = r.output; times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify(args), 'median', times[3]!.toFixed(0), 'ms |', out.split('\n')[0]);
}
await tool.close();
