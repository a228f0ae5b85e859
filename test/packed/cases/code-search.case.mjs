// code_search from the installed packages: the grammar wasm files must resolve from node_modules.
import { withHost } from './helpers.mjs';

const files = {
  'src/gadget.ts': 'export function makeGadget(size: number) { return size; }\nconst g = makeGadget(2);\n',
  'py/gadget.py': 'def make_gadget(size):\n    return size\n\nprint(make_gadget(2))\n',
  'rs/gadget.rs': 'pub fn make_gadget_rs(size: u32) -> u32 { size }\nfn main() { make_gadget_rs(2); }\n',
  'go/gadget.go': 'package gadget\n\nfunc MakeGadgetGo(size int) int { return size }\n\nvar g = MakeGadgetGo(2)\n',
};

const expectations = [
  ['makeGadget', 'src/gadget.ts:1:'],
  ['make_gadget', 'py/gadget.py:1:'],
  ['make_gadget_rs', 'rs/gadget.rs:1:'],
  ['MakeGadgetGo', 'go/gadget.go:3:'],
];

export default [
  {
    name: 'code_search finds definitions in TypeScript, Python, Rust and Go',
    async run(context) {
      const { assert } = context;
      await withHost(context, { workspace: context.tempWorkspace(files), profile: 'advanced' }, async (host) => {
        for (const [query, location] of expectations) {
          const result = await host.call('code_search', { query, result_types: ['definition'] });
          assert.equal(result.ok, true, result.output);
          assert.ok(result.output.includes(`definition ${location}`), `${query}: ${result.output}`);
        }
      });
    },
  },
  {
    name: 'the symbol index worker starts from the installed dist and answers definition searches',
    async run(context) {
      const { assert } = context;
      const [{ createCodeSearchTool }, { createNodeWorkspace }, { approximateTokenizer, createMemorySpool }] = await Promise.all([
        context.load('@toolhost/code-search'),
        context.load('@toolhost/core/node'),
        context.load('@toolhost/core'),
      ]);
      const workspace = createNodeWorkspace(context.tempWorkspace(files));
      const tool = createCodeSearchTool({ index: { cacheDir: false } });
      try {
        tool.prepare(workspace);
        assert.equal(await tool.symbolIndex.ready, true, 'the index worker did not start');
        const result = await tool.execute(tool.schema.parse({ query: 'makeGadget', result_types: ['definition', 'usage'] }), {
          workspace,
          tokenizer: approximateTokenizer,
          spool: createMemorySpool(),
          maxOutputTokens: 1000,
          shell: 'unix_like',
          signal: new AbortController().signal,
        });
        assert.ok(result.output.includes('definition src/gadget.ts:1:17'), result.output);
        assert.ok(result.output.includes('usage src/gadget.ts:2:11'), result.output);
      } finally {
        await tool.close();
      }
      assert.equal(tool.symbolIndex.running, false);
    },
  },
];
