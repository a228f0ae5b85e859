import { packageBuild } from '../../tsup.base.js';

// @vscode/ripgrep is an optional dependency, so it stays external like every declared package. The symbol index worker is
// its own entry: the worker thread loads dist/symbol-index-worker.js from the ESM and the CJS build alike.
export default packageBuild(['src/index.ts', 'src/symbol-index-worker.ts']);
