import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace, WorkspaceDirEntry, WorkspaceStat } from '@toolhost/core';

/** The lstat of an absolute path with its hard link count; undefined when nothing is there. */
export function statOf(absolute: string): (WorkspaceStat & { links: number }) | undefined {
  const stat = lstatSync(absolute, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const kind = stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
  return { kind, size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777, links: stat.nlink };
}

/** A read-only Workspace over synchronous file calls: the worker is alone on its thread, so blocking is cheaper than awaiting. */
export function syncDiskWorkspace(root: string): Workspace {
  const absolute = (path: string) => (path ? join(root, path) : root);
  const fail = () => Promise.reject(new Error('read-only workspace'));
  return {
    root,
    onDisk: true,
    lstat: async (path) => statOf(absolute(path)),
    stat: async (path) => statOf(absolute(path)),
    realpath: async () => undefined,
    readFile: async (path) => readFileSync(absolute(path)),
    writeFile: fail,
    remove: fail,
    readdir: async (path) =>
      readdirSync(absolute(path), { withFileTypes: true }).map((entry): WorkspaceDirEntry => ({
        name: entry.name,
        kind: entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other',
      })),
  };
}
