import type { Workspace } from '@toolhost/core';

/** A workspace whose Nth writeFile or remove throws (counting from 1); counts every call. */
export interface FaultyWorkspace extends Workspace {
  readonly writes: number;
  readonly removes: number;
}

/** Wraps a workspace (every method, optional ones included) so that write number `failWrite` (or removal number `failRemove`) throws an EIO-like error. */
export function createFaultyWorkspace(inner: Workspace, faults: { failWrite?: number; failRemove?: number } = {}): FaultyWorkspace {
  let writes = 0;
  let removes = 0;
  const fault = (what: string, path: string) => Object.assign(new Error(`EIO: injected fault, ${what} '${path}'`), { code: 'EIO' });
  const wrapped: FaultyWorkspace = {
    root: inner.root,
    onDisk: inner.onDisk,
    get writes() {
      return writes;
    },
    get removes() {
      return removes;
    },
    lstat: (path) => inner.lstat(path),
    stat: (path) => inner.stat(path),
    realpath: (path) => inner.realpath(path),
    readFile: (path) => inner.readFile(path),
    readdir: (path) => inner.readdir(path),
    async writeFile(path, data, options) {
      writes++;
      if (writes === faults.failWrite) throw fault('write', path);
      return inner.writeFile(path, data, options);
    },
    async remove(path) {
      removes++;
      if (removes === faults.failRemove) throw fault('unlink', path);
      return inner.remove(path);
    },
  };
  if (inner.syncFolders) {
    const syncFolders = inner.syncFolders.bind(inner);
    // A flush changes no file, so it is not counted (its failure is covered by the commit-journal unit tests).
    wrapped.syncFolders = (paths) => syncFolders(paths);
  }
  if (inner.removeEmptyDirectory) {
    const removeEmptyDirectory = inner.removeEmptyDirectory.bind(inner);
    wrapped.removeEmptyDirectory = (path) => removeEmptyDirectory(path);
  }
  if (inner.readLink) {
    const readLink = inner.readLink.bind(inner);
    wrapped.readLink = (path) => readLink(path);
  }
  if (inner.createSymlink) {
    const createSymlink = inner.createSymlink.bind(inner);
    // Re-creating a link is a write: it counts, and can fail, like one.
    wrapped.createSymlink = async (path, target) => {
      writes++;
      if (writes === faults.failWrite) throw fault('symlink', path);
      return createSymlink(path, target);
    };
  }
  if (inner.rename) {
    const rename = inner.rename.bind(inner);
    // Putting a journaled commit's file in place is a write: it counts, and can fail, like one.
    wrapped.rename = async (from, to) => {
      writes++;
      if (writes === faults.failWrite) throw fault('rename', to);
      return rename(from, to);
    };
  }
  if (inner.link) {
    const link = inner.link.bind(inner);
    // Keeping a journaled commit's old content is a write too.
    wrapped.link = async (existing, path) => {
      writes++;
      if (writes === faults.failWrite) throw fault('link', path);
      return link(existing, path);
    };
  }
  if (inner.commitJournal) Object.assign(wrapped, { commitJournal: inner.commitJournal });
  return wrapped;
}
