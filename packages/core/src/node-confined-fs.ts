import { randomBytes } from 'node:crypto';
import { constants, existsSync, promises as fs, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isPieces, type FileBytes } from './file-bytes.js';
import { optional } from './node-optional.js';

const PROC_FD = '/proc/self/fd';
const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** True where folders can be walked by descriptor (`/proc/self/fd`), so writes cannot be redirected mid-way. */
export const CONFINED_FS_AVAILABLE = process.platform === 'linux' && existsSync(PROC_FD);

function optionalStat(path: string, follow: boolean): Promise<Stats | undefined> {
  return optional(follow ? fs.stat(path) : fs.lstat(path));
}

function outside(path: string): Error {
  return Object.assign(new Error(`EACCES: '${path}' leads outside the workspace`), { code: 'EACCES' });
}

/**
 * The real workspace-relative parts of `path` (a checked relative path below `root`): its deepest existing folder is
 * resolved through symlinks (which must stay inside), the rest is kept as written.
 */
async function realParts(root: string, realRoot: string, path: string): Promise<string[]> {
  const parts = path.split('/').filter(Boolean);
  for (let cut = parts.length - 1; cut > 0; cut--) {
    const folder = join(root, ...parts.slice(0, cut));
    if (!(await optionalStat(folder, true))) continue;
    const real = await fs.realpath(folder);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) throw outside(path);
    const base = relative(realRoot, real);
    return [...(base ? base.split(sep) : []), ...parts.slice(cut)];
  }
  return parts;
}

/** Opens the folder `parts` below `realRoot` one component at a time, never following a symlink. */
async function openFolder(realRoot: string, parts: readonly string[], create: boolean): Promise<fs.FileHandle> {
  let handle = await fs.open(realRoot, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const part of parts) {
      const path = `${PROC_FD}/${handle.fd}/${part}`;
      let next: fs.FileHandle;
      try {
        next = await fs.open(path, FOLDER_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR') {
          throw Object.assign(
            new Error(`${code}: '${part}' is no longer a folder (a symlink or file took its place); nothing was written through it`),
            { code },
          );
        }
        if (!create || code !== 'ENOENT') throw error;
        try {
          await fs.mkdir(path);
        } catch (mkdirError) {
          if ((mkdirError as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirError;
        }
        next = await fs.open(path, FOLDER_FLAGS);
      }
      await handle.close();
      handle = next;
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Where a confined operation acts: the opened real parent folder and the entry name in it. */
async function locate(root: string, realRoot: string, path: string, create: boolean): Promise<{ folder: fs.FileHandle; name: string }> {
  const parts = await realParts(root, realRoot, path);
  const name = parts.pop();
  if (!name) throw Object.assign(new Error(`EISDIR: '${path}' is the workspace root`), { code: 'EISDIR' });
  return { folder: await openFolder(realRoot, parts, create), name };
}

/** Writes a new temp file; with `durable`, its data is on disk before it returns. */
export async function writeTemp(temp: string, data: FileBytes, mode: number | undefined, durable: boolean): Promise<void> {
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await writeWhole(handle, data);
    if (durable) await handle.datasync();
  } finally {
    await handle.close();
  }
  if (mode !== undefined) await fs.chmod(temp, mode);
}

/** Writes all of `data` from the start of a new file; pieces go in one gathered write, continued if it falls short. */
async function writeWhole(handle: fs.FileHandle, data: FileBytes): Promise<void> {
  if (!isPieces(data)) return handle.writeFile(data);
  let pieces = data.filter((piece) => piece.length > 0);
  while (pieces.length > 0) {
    let { bytesWritten } = await handle.writev(pieces);
    if (bytesWritten === 0) throw Object.assign(new Error('EIO: a write made no progress'), { code: 'EIO' });
    while (pieces.length > 0 && bytesWritten >= pieces[0]!.length) bytesWritten -= pieces.shift()!.length;
    if (bytesWritten > 0) pieces = [pieces[0]!.subarray(bytesWritten), ...pieces.slice(1)];
  }
}

/**
 * Writes `data` to `path` (below `root`) with temp file + rename, walking folders by descriptor so that a folder
 * swapped for a symlink mid-way makes the write fail instead of landing outside. A symlink at `path` itself is
 * written through to its target, which must be inside.
 */
export async function confinedWriteFile(
  root: string,
  realRoot: string,
  path: string,
  data: FileBytes,
  mode: number | undefined,
  durable = false,
  tempName = `.${randomBytes(6).toString('hex')}.toolhost.tmp`,
  syncFolder = durable,
): Promise<void> {
  let target = path;
  const own = await optionalStat(join(root, path), false);
  if (own?.isSymbolicLink()) {
    const real = await fs.realpath(join(root, path));
    if (!real.startsWith(realRoot + sep)) throw outside(path);
    target = relative(realRoot, real).split(sep).join('/');
  }
  const { folder, name } = await locate(root, realRoot, target, true);
  try {
    const base = `${PROC_FD}/${folder.fd}`;
    const temp = `${base}/${tempName}`;
    try {
      await writeTemp(temp, data, mode, durable);
      await fs.rename(temp, `${base}/${name}`);
      if (syncFolder) await folder.sync();
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  } finally {
    await folder.close();
  }
}

/** The real workspace-relative folder parts holding `path`: a symlink at `path` leads to its target's folder. */
async function holdingFolder(root: string, realRoot: string, path: string): Promise<string[]> {
  let target = path;
  if ((await optionalStat(join(root, path), false))?.isSymbolicLink()) {
    const real = await optional(fs.realpath(join(root, path)));
    if (real !== undefined && real.startsWith(realRoot + sep)) target = relative(realRoot, real).split(sep).join('/');
  }
  const parts = await realParts(root, realRoot, target);
  parts.pop();
  return parts;
}

/** Flushes each distinct folder holding one of `paths` once, reaching it by descriptor. */
export async function confinedSyncFolders(root: string, realRoot: string, paths: readonly string[]): Promise<void> {
  const folders = new Map<string, string[]>();
  for (const path of paths) {
    const parts = await holdingFolder(root, realRoot, path);
    folders.set(parts.join('/'), parts);
  }
  await Promise.all(
    [...folders.values()].map(async (parts) => {
      const folder = await openFolder(realRoot, parts, false);
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    }),
  );
}

/** Removes one file or symlink below `root`, reaching its folder by descriptor (never through a swapped-in symlink). */
export async function confinedRemove(root: string, realRoot: string, path: string): Promise<void> {
  const { folder, name } = await locate(root, realRoot, path, false);
  try {
    await fs.unlink(`${PROC_FD}/${folder.fd}/${name}`);
  } finally {
    await folder.close();
  }
}

/** Creates a symlink `path` (below `root`) with target text `target`, reaching its folder by descriptor. */
export async function confinedSymlink(root: string, realRoot: string, path: string, target: string): Promise<void> {
  const { folder, name } = await locate(root, realRoot, path, false);
  try {
    await fs.symlink(target, `${PROC_FD}/${folder.fd}/${name}`);
  } finally {
    await folder.close();
  }
}

/** Renames `from` to `to` (both below `root`), reaching both folders by descriptor; a symlink at `to` is replaced. */
export async function confinedRename(root: string, realRoot: string, from: string, to: string): Promise<void> {
  const source = await locate(root, realRoot, from, false);
  try {
    const target = await locate(root, realRoot, to, false);
    try {
      await fs.rename(`${PROC_FD}/${source.folder.fd}/${source.name}`, `${PROC_FD}/${target.folder.fd}/${target.name}`);
    } finally {
      await target.folder.close();
    }
  } finally {
    await source.folder.close();
  }
}

/** Hard-links `existing` to the new name `path` (both below `root`) by descriptor; a symlink is linked, not followed. */
export async function confinedLink(root: string, realRoot: string, existing: string, path: string): Promise<void> {
  const source = await locate(root, realRoot, existing, false);
  try {
    const target = await locate(root, realRoot, path, false);
    try {
      await fs.link(`${PROC_FD}/${source.folder.fd}/${source.name}`, `${PROC_FD}/${target.folder.fd}/${target.name}`);
    } finally {
      await target.folder.close();
    }
  } finally {
    await source.folder.close();
  }
}
