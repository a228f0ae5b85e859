/**
 * The Node-only part of `@toolhost/core`: the disk workspace and the file spool.
 *
 * @module @toolhost/core/node
 */
export { createNodeWorkspace } from './node-workspace.js';
export { createFileSpool } from './node-spool.js';
