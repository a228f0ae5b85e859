import type { Workspace, WorkspaceDirEntry, WorkspaceRealPath, WorkspaceStat } from './workspace.js';

interface MemoryFile {
  data: Uint8Array;
  mode: number;
  mtimeMs: number;
}

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

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

function normalize(path: string): string | undefined {
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

function notFound(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory '${path}'`), { code: 'ENOENT' });
}

/** Creates an in-memory workspace rooted at `root` (default `/workspace`). */
export function createMemoryWorkspace(files: Record<string, MemoryFileInput> = {}, root = '/workspace'): MemoryWorkspace {
  const fileMap = new Map<string, MemoryFile>();
  const dirs = new Set<string>(['']);
  const links = new Map<string, string>();
  let clock = Date.now();
  const addDirs = (path: string) => {
    for (let dir = parentOf(path); ; dir = parentOf(dir)) {
      dirs.add(dir);
      if (dir === '') break;
    }
  };
  const put = (path: string, data: Uint8Array, mode: number) => {
    fileMap.set(path, { data, mode, mtimeMs: ++clock });
    addDirs(path);
  };
  for (const [path, input] of Object.entries(files)) {
    const rel = normalize(path.startsWith(root + '/') ? path.slice(root.length + 1) : path);
    if (rel === undefined || rel === '') throw new Error(`invalid memory workspace path ${path}`);
    const content = typeof input === 'string' || input instanceof Uint8Array ? input : input.content;
    const mode = typeof input === 'object' && !(input instanceof Uint8Array) ? (input.mode ?? 0o644) : 0o644;
    put(rel, typeof content === 'string' ? encoder.encode(content) : content, mode);
  }

  // Resolves symlinks along the whole path; undefined if outside or looping.
  const resolve = (path: string, depth = 0): { path: string; outside?: string } | undefined => {
    if (depth > 40) return undefined;
    const parts = path ? path.split('/') : [];
    let current = '';
    for (let i = 0; i < parts.length; i++) {
      const next = current ? `${current}/${parts[i]}` : parts[i];
      const target = links.get(next);
      if (target === undefined) {
        current = next;
        continue;
      }
      let joined: string;
      if (target.startsWith('/')) {
        if (target !== root && !target.startsWith(root + '/')) return { path: next, outside: target };
        joined = target.slice(root.length + 1);
      } else joined = current ? `${current}/${target}` : target;
      const rest = parts.slice(i + 1).join('/');
      const normalized = normalize(rest ? `${joined}/${rest}` : joined);
      if (normalized === undefined) return { path: next, outside: `${root}/${joined}` };
      return resolve(normalized, depth + 1);
    }
    return { path: current };
  };

  const statOf = (path: string): WorkspaceStat | undefined => {
    const file = fileMap.get(path);
    if (file) return { kind: 'file', size: file.data.length, mtimeMs: file.mtimeMs, mode: file.mode };
    if (dirs.has(path)) return { kind: 'directory', size: 0, mtimeMs: 0, mode: 0o755 };
    return undefined;
  };

  const real = (path: string): string => {
    const resolved = resolve(path);
    if (!resolved || resolved.outside !== undefined) throw notFound(path);
    return resolved.path;
  };

  // The entry itself (its folder resolved through symlinks, the last name kept), as remove and readLink see it.
  const ownPath = (path: string): string => {
    const resolvedParent = real(parentOf(path));
    const base = path.slice(path.lastIndexOf('/') + 1);
    return resolvedParent ? `${resolvedParent}/${base}` : base;
  };

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
      put(finalPath, data.slice(), options?.mode ?? fileMap.get(finalPath)?.mode ?? 0o644);
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
      addDirs(own);
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
      const prefix = dir ? `${dir}/` : '';
      const names = new Map<string, WorkspaceDirEntry['kind']>();
      for (const file of fileMap.keys())
        if (file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) names.set(file.slice(prefix.length), 'file');
      for (const d of dirs)
        if (d !== dir && d.startsWith(prefix) && !d.slice(prefix.length).includes('/')) names.set(d.slice(prefix.length), 'directory');
      for (const link of links.keys())
        if (link.startsWith(prefix) && !link.slice(prefix.length).includes('/')) names.set(link.slice(prefix.length), 'symlink');
      return [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, kind]) => ({ name, kind }));
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
      addDirs(rel);
    },
  };
  return workspace;
}
