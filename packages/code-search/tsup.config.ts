import { packageBuild } from '../../tsup.base.js';

// @vscode/ripgrep is an optional dependency, so it stays external like every declared package. The symbol index worker is
// its own entry: the worker thread loads dist/symbol-index-worker.js from the ESM and the CJS build alike. The schema is
// an entry too: a host lists code_search from it and loads the rest (the parser setup) only for a profile with the tool.
export default packageBuild(['src/index.ts', 'src/symbol-index-worker.ts', 'src/code-search-schema.ts']);
