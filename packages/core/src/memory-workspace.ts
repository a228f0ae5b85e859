import { joinFileBytes } from './file-bytes.js';
import { createMemoryTree, normalize, notFound, parentOf } from './memory-tree.js';
import type { Workspace, WorkspaceDirEntry, WorkspaceRealPath } from './workspace.js';

/** Initial content of an in-memory workspace: text, bytes, or a file with a mode. */
export type MemoryFileInput = string | Uint8Array | { content: string | Uint8Array; mode?: number };

/** An in-memory workspace; `snapshot()` returns every file as text. */
export interface MemoryWorkspace extends Workspace {
  /** Every file as UTF-8 text, keyed by relative path, sorted. */
  snapshot(): Record<string, string>;
  /** Adds a symlink (target relative to the link's folder, or absolute). */
  symlink(path: string, target: string): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Creates an in-memory workspace rooted at `root` (default `/workspace`). */
export function createMemoryWorkspace(files: Record<string, MemoryFileInput> = {}, root = '/workspace'): MemoryWorkspace {
  const tree = createMemoryTree(root);
  const { files: fileMap, dirs, links, resolve, statOf, real, ownPath } = tree;
  for (const [path, input] of Object.entries(files)) {
    const rel = normalize(path.startsWith(root + '/') ? path.slice(root.length + 1) : path);
    if (rel === undefined || rel === '') throw new Error(`invalid memory workspace path ${path}`);
    const content = typeof input === 'string' || input instanceof Uint8Array ? input : input.content;
    const mode = typeof input === 'object' && !(input instanceof Uint8Array) ? (input.mode ?? 0o644) : 0o644;
    tree.put(rel, typeof content === 'string' ? encoder.encode(content) : content, mode);
  }

  const workspace: MemoryWorkspace = {
    root,
    onDisk: false,
    async lstat(path) {
      const parent = parentOf(path);
      const resolvedParent = parent ? resolve(parent) : { path: '' };
      if (!resolvedParent || resolvedParent.outside !== undefined) return undefined;
      const own = resolvedParent.path
        ? `${resolvedParent.path}/${path.slice(parent ? parent.length + 1 : 0)}`
        : path.slice(parent ? parent.length + 1 : 0);
      if (links.has(own)) return { kind: 'symlink', size: 0, mtimeMs: 0, mode: 0o777 };
      return statOf(own);
    },
    async stat(path) {
      const resolved = resolve(path);
      if (!resolved || resolved.outside !== undefined) return undefined;
      return statOf(resolved.path);
    },
    async realpath(path): Promise<WorkspaceRealPath | undefined> {
      const resolved = resolve(path);
      if (!resolved) return undefined;
      if (resolved.outside !== undefined) return { inside: false, path: resolved.outside };
      return statOf(resolved.path) ? { inside: true, path: resolved.path } : undefined;
    },
    async readFile(path) {
      const file = fileMap.get(real(path));
      if (!file) throw notFound(path);
      return file.data.slice();
    },
    async writeFile(path, data, options) {
      const target = real(parentOf(path))
        ? `${real(parentOf(path))}/${path.slice(path.lastIndexOf('/') + 1)}`
        : path.slice(path.lastIndexOf('/') + 1);
      const finalPath = links.has(target) ? real(target) : target;
      if (dirs.has(finalPath)) throw Object.assign(new Error(`EISDIR: '${path}' is a directory`), { code: 'EISDIR' });
      tree.put(finalPath, joinFileBytes(data).slice(), options?.mode ?? fileMap.get(finalPath)?.mode ?? 0o644);
    },
    async remove(path) {
      const own = ownPath(path);
      if (links.delete(own)) return;
      if (!fileMap.delete(own)) throw notFound(path);
    },
    async readLink(path) {
      const own = ownPath(path);
      const target = links.get(own);
      if (target === undefined) throw Object.assign(new Error(`EINVAL: '${path}' is not a symlink`), { code: 'EINVAL' });
      return target;
    },
    async createSymlink(path, target) {
      const own = ownPath(path);
      if (links.has(own) || fileMap.has(own) || dirs.has(own))
        throw Object.assign(new Error(`EEXIST: '${path}' already exists`), { code: 'EEXIST' });
      links.set(own, target);
      tree.addDirs(own);
    },
    async removeEmptyDirectory(path) {
      const dir = real(path);
      if (!dir || !dirs.has(dir)) throw notFound(path);
      const prefix = `${dir}/`;
      const used = (entry: string) => entry.startsWith(prefix);
      if ([...fileMap.keys()].some(used) || [...dirs].some(used) || [...links.keys()].some(used)) {
        throw Object.assign(new Error(`ENOTEMPTY: directory not empty '${path}'`), { code: 'ENOTEMPTY' });
      }
      dirs.delete(dir);
    },
    async readdir(path): Promise<WorkspaceDirEntry[]> {
      const dir = real(path);
      if (!dirs.has(dir)) throw notFound(path);
      return tree.list(dir);
    },
    snapshot() {
      const out: Record<string, string> = {};
      for (const path of [...fileMap.keys()].sort()) out[path] = decoder.decode(fileMap.get(path)!.data);
      return out;
    },
    symlink(path, target) {
      const rel = normalize(path);
      if (!rel) throw new Error(`invalid symlink path ${path}`);
      links.set(rel, target);
      tree.addDirs(rel);
    },
  };
  return workspace;
}
