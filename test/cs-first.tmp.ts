import { approximateTokenizer, createMemorySpool } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createCodeSearchTool } from '@toolhost/code-search';
const root = process.argv[2]!; const queries = JSON.parse(process.argv[3]!) as Record<string, unknown>[];
const workspace = createNodeWorkspace(root);
const ctx = () => ({ workspace, tokenizer: approximateTokenizer, spool: createMemorySpool(), maxOutputTokens: 10_000, shell: 'unix_like' as const, signal: new AbortController().signal });
for (const args of queries) {
  const tool = createCodeSearchTool({ index: false });
  const t = performance.now(); const r = await tool.execute(tool.schema.parse(args), ctx() as never);
  console.log(JSON.stringify(args), (performance.now() - t).toFixed(0), 'ms |', r.output.split('\n')[0]);
  await tool.close();
}
