import { packageBuild } from '../../tsup.base.js';

export default packageBuild(['src/index.ts'], {
  // Optional at run time: resolved lazily, never bundled.
  external: ['@vscode/ripgrep'],
});
