/**
 * The Node-only part of `@toolhost/core`: the disk workspace and the file spool.
 *
 * @module @toolhost/core/node
 */
export { createNodeWorkspace, type NodeWorkspaceOptions } from './node-workspace.js';
export type { WorkspaceDurability } from './workspace.js';
export { commitJournalDirectory, toolhostStateDirectory } from './node-commit-journal.js';
export { createFileSpool } from './node-spool.js';
