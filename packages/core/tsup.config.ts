import { packageBuild } from '../../tsup.base.js';

// serial-queue is an entry of its own so a worker thread can take the lock without loading the tokenizer the main entry loads.
export default packageBuild(['src/index.ts', 'src/node.ts', 'src/serial-queue.ts']);
