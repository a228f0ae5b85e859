import { approximateTokenizer, createMemorySpool } from '@toolhost/core';
import { createNodeWorkspace } from '@toolhost/core/node';
import { createCodeSearchTool } from '@toolhost/code-search';
const root = process.argv[2]!; const query = process.argv[3]!;
const workspace = createNodeWorkspace(root);
const tool = createCodeSearchTool({ index: { cacheDir: process.env.CACHE! } });
tool.prepare(workspace as never); await tool.symbolIndex!.ready;
const s = tool.symbolIndex!;
for (let i = 0; i < 5; i++) {
  let t = performance.now();
  const r = await s.textLookup({ query, caseSensitive: true, start: '', identifiers: true, paths: true });
  const a = performance.now() - t;
  const occ = r!.files.reduce((n, f) => n + (f.occurrences?.length ?? 0), 0);
  const withOcc = r!.files.filter((f) => f.occurrences).length;
  const defs = r!.files.filter((f) => f.occurrences?.some((o) => o.definition)).length;
  t = performance.now();
  await tool.execute(tool.schema.parse({ query }), { workspace, tokenizer: approximateTokenizer, spool: createMemorySpool(), maxOutputTokens: 10000, shell: 'unix_like', signal: new AbortController().signal } as never);
  console.log(`textLookup ${a.toFixed(1)} ms: ${r!.files.length} files, ${withOcc} with occurrences (${occ}), ${defs} with defs, paths ${r!.paths?.length}; execute ${(performance.now() - t).toFixed(1)}`);
}
await tool.close();
