import ignore, { type Ignore } from 'ignore';
import type { Workspace } from '@toolhost/core';

interface IgnoreLayer {
  /** Folder the rules belong to ('' for the root). */
  readonly dir: string;
  readonly rules: Ignore;
}

const decoder = new TextDecoder();
const WALK_CONCURRENCY = 16;

function join(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

function isIgnored(layers: readonly IgnoreLayer[], path: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const relative = layer.dir ? path.slice(layer.dir.length + 1) : path;
    const result = layer.rules.test(isDirectory ? `${relative}/` : relative);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

async function readIgnoreLayer(workspace: Workspace, dir: string): Promise<IgnoreLayer | undefined> {
  const file = join(dir, '.gitignore');
  const stat = await workspace.lstat(file);
  if (stat?.kind !== 'file') return undefined;
  try {
    const text = decoder.decode(await workspace.readFile(file));
    return { dir, rules: ignore({ allowRelativePaths: true }).add(text) };
  } catch {
    return undefined;
  }
}

/**
 * Lists the files under `start` (a workspace-relative folder or file), sorted by path: honours `.gitignore` files (nested
 * ones too, and those of the folders above `start`), skips `.git/`, never follows symlinks. `onDirectory` hears every folder
 * listed (`start` included).
 */
export async function walkWorkspace(
  workspace: Workspace,
  start: string,
  signal?: AbortSignal,
  onDirectory?: (dir: string) => void,
): Promise<string[]> {
  const stat = await workspace.stat(start);
  if (!stat) return [];
  if (stat.kind === 'file') return [start];
  if (stat.kind !== 'directory') return [];

  // Rules of the folders above `start`; an explicitly requested ignored folder is searched anyway.
  let ancestors: IgnoreLayer[] = [];
  const parts = start ? start.split('/') : [];
  for (let depth = 0; depth < parts.length; depth++) {
    const layer = await readIgnoreLayer(workspace, parts.slice(0, depth).join('/'));
    if (layer) ancestors.push(layer);
  }
  if (start && isIgnored(ancestors, start, true)) ancestors = [];

  const files: string[] = [];
  const queue: Array<{ dir: string; layers: IgnoreLayer[] }> = [{ dir: start, layers: ancestors }];
  const visit = async (dir: string, inherited: IgnoreLayer[]) => {
    onDirectory?.(dir);
    let entries;
    try {
      entries = await workspace.readdir(dir);
    } catch {
      return;
    }
    let layers = inherited;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.kind === 'file')) {
      const layer = await readIgnoreLayer(workspace, dir);
      if (layer) layers = [...inherited, layer];
    }
    for (const entry of entries) {
      if (entry.kind === 'symlink' || entry.kind === 'other') continue;
      const path = join(dir, entry.name);
      if (entry.kind === 'directory') {
        if (entry.name === '.git') continue;
        if (layers.length > 0 && isIgnored(layers, path, true)) continue;
        queue.push({ dir: path, layers });
      } else if (layers.length === 0 || !isIgnored(layers, path, false)) files.push(path);
    }
  };

  const running = new Set<Promise<void>>();
  while (queue.length > 0 || running.size > 0) {
    if (signal?.aborted) break;
    while (queue.length > 0 && running.size < WALK_CONCURRENCY) {
      const next = queue.shift()!;
      const task: Promise<void> = visit(next.dir, next.layers).finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size > 0) await Promise.race(running);
  }
  return files.sort(comparePaths);
}

/** Orders paths by UTF-16 code units (the order results are reported in). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The direct children of `dir` (a folder the walk reaches) that a walk from the root keeps: files and folders, with the
 * `.gitignore` rules of `dir` and of every folder above it applied.
 */
export async function listFolder(workspace: Workspace, dir: string): Promise<{ files: string[]; folders: string[] }> {
  const layers: IgnoreLayer[] = [];
  const parts = dir ? dir.split('/') : [];
  for (let depth = 0; depth <= parts.length; depth++) {
    const layer = await readIgnoreLayer(workspace, parts.slice(0, depth).join('/'));
    if (layer) layers.push(layer);
  }
  const files: string[] = [];
  const folders: string[] = [];
  for (const entry of await workspace.readdir(dir)) {
    if (entry.kind === 'symlink' || entry.kind === 'other') continue;
    const path = join(dir, entry.name);
    if (entry.kind === 'directory') {
      if (entry.name !== '.git' && !isIgnored(layers, path, true)) folders.push(path);
    } else if (!isIgnored(layers, path, false)) files.push(path);
  }
  return { files, folders };
}
