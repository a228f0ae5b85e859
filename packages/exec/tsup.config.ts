import { packageBuild } from '../../tsup.base.js';

// The schema is an entry of its own: the runtime lists exec_command and write_stdin from it without loading the executors.
export default packageBuild(['src/index.ts', 'src/exec-schema.ts']);
