import type { WorkspaceDirEntry, WorkspaceStat } from './workspace.js';

/** A file of the in-memory workspace. */
export interface MemoryFile {
  data: Uint8Array;
  mode: number;
  mtimeMs: number;
}

/** A resolved path: inside the root, or the absolute target of a symlink that leads outside it. */
export interface MemoryResolvedPath {
  path: string;
  outside?: string;
}

/** The files, folders and symlinks of an in-memory workspace, keyed by path relative to its root. */
export interface MemoryTree {
  readonly files: Map<string, MemoryFile>;
  readonly dirs: Set<string>;
  /** Symlink targets as written (relative to the link's folder, or absolute). */
  readonly links: Map<string, string>;
  /** Adds every folder above `path`. */
  readonly addDirs: (path: string) => void;
  /** Writes a file with a new modification time, adding its folders. */
  readonly put: (path: string, data: Uint8Array, mode: number) => void;
  /** Resolves symlinks along the whole path; undefined if looping. */
  readonly resolve: (path: string, depth?: number) => MemoryResolvedPath | undefined;
  readonly statOf: (path: string) => WorkspaceStat | undefined;
  /** The resolved path inside the root; throws ENOENT for one outside it or looping. */
  readonly real: (path: string) => string;
  /** The entry itself (its folder resolved through symlinks, the last name kept), as remove and readLink see it. */
  readonly ownPath: (path: string) => string;
  /** The entries directly in folder `dir` (resolved), sorted by name. */
  readonly list: (dir: string) => WorkspaceDirEntry[];
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

/** Drops empty and `.` segments and applies `..`; undefined for a path that climbs above the root. */
export function normalize(path: string): string | undefined {
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

export function notFound(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory '${path}'`), { code: 'ENOENT' });
}

/** Creates an empty tree for a workspace rooted at `root`. */
export function createMemoryTree(root: string): MemoryTree {
  const files = new Map<string, MemoryFile>();
  const dirs = new Set<string>(['']);
  const links = new Map<string, string>();
  let clock = Date.now();
  const addDirs = (path: string) => {
    for (let dir = parentOf(path); ; dir = parentOf(dir)) {
      dirs.add(dir);
      if (dir === '') break;
    }
  };
  const resolve = (path: string, depth = 0): MemoryResolvedPath | undefined => {
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
  const real = (path: string): string => {
    const resolved = resolve(path);
    if (!resolved || resolved.outside !== undefined) throw notFound(path);
    return resolved.path;
  };
  return {
    files,
    dirs,
    links,
    addDirs,
    put(path, data, mode) {
      files.set(path, { data, mode, mtimeMs: ++clock });
      addDirs(path);
    },
    resolve,
    statOf(path) {
      const file = files.get(path);
      if (file) return { kind: 'file', size: file.data.length, mtimeMs: file.mtimeMs, mode: file.mode };
      if (dirs.has(path)) return { kind: 'directory', size: 0, mtimeMs: 0, mode: 0o755 };
      return undefined;
    },
    real,
    ownPath(path) {
      const resolvedParent = real(parentOf(path));
      const base = path.slice(path.lastIndexOf('/') + 1);
      return resolvedParent ? `${resolvedParent}/${base}` : base;
    },
    list(dir) {
      const prefix = dir ? `${dir}/` : '';
      const names = new Map<string, WorkspaceDirEntry['kind']>();
      for (const file of files.keys())
        if (file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) names.set(file.slice(prefix.length), 'file');
      for (const d of dirs)
        if (d !== dir && d.startsWith(prefix) && !d.slice(prefix.length).includes('/')) names.set(d.slice(prefix.length), 'directory');
      for (const link of links.keys())
        if (link.startsWith(prefix) && !link.slice(prefix.length).includes('/')) names.set(link.slice(prefix.length), 'symlink');
      return [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, kind]) => ({ name, kind }));
    },
  };
}
