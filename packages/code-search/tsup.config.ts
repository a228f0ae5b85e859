import { packageBuild } from '../../tsup.base.js';

// @vscode/ripgrep is an optional dependency, so it stays external like every declared package.
export default packageBuild();
