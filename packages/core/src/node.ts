export { createNodeWorkspace } from './node-workspace.js';
export { createFileSpool } from './node-spool.js';
