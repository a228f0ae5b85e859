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
];
