import { packageBuild } from '../../tsup.base.js';

// The symbol index worker is its own entry: the worker thread loads dist/symbol-index-worker.js from the ESM and the CJS build.
export default packageBuild(['src/index.ts', 'src/symbol-index-worker.ts'], {
  // Optional at run time: resolved lazily, never bundled.
  external: ['@vscode/ripgrep'],
});
