import { randomBytes } from 'node:crypto';
import type { SFTPWrapper, Stats } from 'ssh2';
import {
  joinFileBytes,
  parseRipgrepFileList,
  ripgrepFileListArguments,
  type Workspace,
  type WorkspaceDirEntry,
  type WorkspaceEntryKind,
  type WorkspaceStat,
} from '@toolhost/core';
import { REMOTE_RIPGREP_SCRIPT, type ScriptRunner } from '@toolhost/remote';

/** SFTP status codes (draft-ietf-secsh-filexfer) mapped to the errno names Node uses. */
const ERRNO_BY_STATUS: Record<number, string> = { 2: 'ENOENT', 3: 'EACCES', 4: 'EIO', 5: 'EINVAL' };

const S_IFMT = 0o170000;

function kindOfMode(mode: number): WorkspaceEntryKind {
  switch (mode & S_IFMT) {
    case 0o100000:
      return 'file';
    case 0o040000:
      return 'directory';
    case 0o120000:
      return 'symlink';
    default:
      return 'other';
  }
}

function toStat(stats: Stats): WorkspaceStat {
  return { kind: kindOfMode(stats.mode), size: stats.size, mtimeMs: stats.mtime * 1000, mode: stats.mode & 0o7777 };
}

function withErrno(error: unknown, operation: string, path: string): Error {
  const status = (error as { code?: unknown })?.code;
  const code = typeof status === 'number' ? (ERRNO_BY_STATUS[status] ?? 'EIO') : typeof status === 'string' ? status : 'EIO';
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(`${operation} ${path}: ${code} (${message})`), { code });
}

/** SFTP status codes: no such file, and the "bad message" OpenSSH answers for ENAMETOOLONG (and EINVAL). */
const NO_SUCH_FILE = 2;
const BAD_MESSAGE = 5;
/** The longest file name (in bytes) Linux and most file systems allow. */
const NAME_MAX = 255;

/** True when an SFTP error means nothing is at `path`: no such file, or a name too long to exist (as locally). */
const isMissing = (error: unknown, path = '') => {
  const status = (error as { code?: unknown })?.code;
  return status === NO_SUCH_FILE || (status === BAD_MESSAGE && path.split('/').some((name) => Buffer.byteLength(name) > NAME_MAX));
};

/** Turns an ssh2 callback call into a promise. */
function call<T>(start: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value as T))));
}

/** Bytes of one SFTP read or write request (what OpenSSH's sftp-server takes at once). */
const CHUNK_BYTES = 32 * 1024;
/** Requests of one file kept in flight: a large file costs about one round trip, not one a chunk. */
const CHUNKS_IN_FLIGHT = 64;

/** Runs `task` for each chunk offset of `size` bytes, a window of them in flight at once. */
async function eachChunk(size: number, task: (offset: number, length: number) => Promise<void>): Promise<void> {
  const offsets = Array.from({ length: Math.ceil(size / CHUNK_BYTES) }, (_, index) => index * CHUNK_BYTES);
  let next = 0;
  const worker = async () => {
    while (next < offsets.length) {
      const offset = offsets[next++]!;
      await task(offset, Math.min(CHUNK_BYTES, size - offset));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHUNKS_IN_FLIGHT, offsets.length) }, worker));
}

/** Writes a new file, its chunks in flight together, flushing it (fsync@openssh.com) before it is closed when `durable`. */
async function writeWhole(sftp: SFTPWrapper, path: string, data: Buffer, mode: number, durable: boolean): Promise<void> {
  const handle = await call<Buffer>((done) => sftp.open(path, 'w', { mode }, done));
  try {
    await eachChunk(data.length, (offset, length) => call<void>((done) => sftp.write(handle, data, offset, length, offset, done)));
    if (durable) await call<void>((done) => sftp.ext_openssh_fsync(handle, done));
  } finally {
    await call<void>((done) => sftp.close(handle, done));
  }
}

/** Reads a whole file, the chunks of its size when opened in flight together, then on to its end (it may have grown). */
async function readWhole(sftp: SFTPWrapper, path: string): Promise<Buffer> {
  const handle = await call<Buffer>((done) => sftp.open(path, 'r', done));
  try {
    const stats = await call<Stats>((done) => sftp.fstat(handle, done));
    if (kindOfMode(stats.mode) === 'directory') throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    const size = stats.size;
    const pieces: Buffer[] = [];
    let short = size;
    await eachChunk(size, async (offset, length) => {
      const piece = Buffer.alloc(length);
      const read = await call<number>((done) => sftp.read(handle, piece, 0, length, offset, done)).catch((error: unknown) => {
        // Past the end of a file that shrank since it was opened.
        if ((error as { code?: unknown })?.code === 1) return 0;
        throw error;
      });
      pieces[offset / CHUNK_BYTES] = piece.subarray(0, read);
      if (read < length) short = Math.min(short, offset + read);
    });
    let whole = Buffer.concat(pieces);
    if (short < size) return whole.subarray(0, short);
    for (;;) {
      const piece = Buffer.alloc(CHUNK_BYTES);
      const read = await call<number>((done) => sftp.read(handle, piece, 0, CHUNK_BYTES, whole.length, done)).catch((error: unknown) => {
        if ((error as { code?: unknown })?.code === 1) return 0;
        throw error;
      });
      if (read === 0) return whole;
      whole = Buffer.concat([whole, piece.subarray(0, read)]);
    }
  } finally {
    await call<void>((done) => sftp.close(handle, done)).catch(() => undefined);
  }
}

/**
 * A workspace on an SSH host over one SFTP session: writes go to a temporary file in the same folder, then the
 * posix-rename extension replaces the target atomically; hard links and flushed writes (hardlink@openssh.com,
 * fsync@openssh.com) let a journaled commit survive the host's crash. `session()` yields the current SFTP session (re-opened after
 * a dropped connection). With `flush: false` a durable write is not flushed (a commit then survives the host's crash,
 * not the remote machine's).
 */
export function createSftpWorkspace(
  root: string,
  realRoot: string,
  session: () => Promise<SFTPWrapper>,
  runScript: ScriptRunner,
  options: { flush?: boolean } = {},
): Workspace {
  const flush = options.flush ?? true;
  const abs = (path: string) => (path ? `${root.replace(/\/+$/, '')}/${path}` : root);
  const realPrefix = realRoot === '/' ? '/' : `${realRoot}/`;
  const run = async <T>(operation: string, path: string, task: (sftp: SFTPWrapper) => Promise<T>): Promise<T> => {
    const sftp = await session();
    try {
      return await task(sftp);
    } catch (error) {
      throw withErrno(error, operation, path);
    }
  };
  const optionalStat = async (operation: 'lstat' | 'stat', path: string): Promise<WorkspaceStat | undefined> => {
    const sftp = await session();
    try {
      return toStat(await call<Stats>((done) => sftp[operation](abs(path), done)));
    } catch (error) {
      if (isMissing(error, path)) return undefined;
      throw withErrno(error, operation, path);
    }
  };
  const ensureFolder = async (sftp: SFTPWrapper, folder: string): Promise<void> => {
    const stats = await call<Stats>((done) => sftp.stat(folder, done)).catch(() => undefined);
    if (stats) {
      if (kindOfMode(stats.mode) !== 'directory') throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
      return;
    }
    const parent = folder.slice(0, folder.lastIndexOf('/')) || '/';
    if (parent !== folder) await ensureFolder(sftp, parent);
    await call<void>((done) => sftp.mkdir(folder, done)).catch(async (error) => {
      // Created meanwhile by someone else: fine.
      if (!(await call<Stats>((done) => sftp.stat(folder, done)).catch(() => undefined))) throw error;
    });
  };
  return {
    root,
    onDisk: true,
    // One SFTP channel carries every request in flight, so a patch's files go at once, not a few at a time.
    concurrency: 64,
    lstat: (path) => optionalStat('lstat', path),
    stat: (path) => optionalStat('stat', path),
    async realpath(path) {
      const sftp = await session();
      // Like fs.realpath: undefined for a missing path or a dangling link.
      const exists = await call<Stats>((done) => sftp.stat(abs(path), done)).catch(() => undefined);
      if (!exists) return undefined;
      const real = await call<string>((done) => sftp.realpath(abs(path), done)).catch(() => undefined);
      if (real === undefined) return undefined;
      if (real === realRoot) return { inside: true, path: '' };
      if (real.startsWith(realPrefix)) return { inside: true, path: real.slice(realPrefix.length) };
      return { inside: false, path: real };
    },
    readFile: (path) => run('read', path, (sftp) => readWhole(sftp, abs(path))),
    writeFile: (path, data, options) =>
      run('write', path, async (sftp) => {
        // Write through symlinks to their target, never replacing the link with a regular file.
        let target = abs(path);
        const link = await call<Stats>((done) => sftp.lstat(target, done)).catch(() => undefined);
        if (link && kindOfMode(link.mode) === 'symlink') target = await call<string>((done) => sftp.realpath(target, done));
        const existing = await call<Stats>((done) => sftp.stat(target, done)).catch(() => undefined);
        if (existing && kindOfMode(existing.mode) === 'directory') throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
        const folder = target.slice(0, target.lastIndexOf('/')) || '/';
        await ensureFolder(sftp, folder);
        const mode = options?.mode ?? (existing ? existing.mode & 0o7777 : 0o644);
        const temp = `${folder}/${options?.tempName ?? `.${randomBytes(6).toString('hex')}.toolhost.tmp`}`;
        const whole = joinFileBytes(data);
        const bytes = Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength);
        try {
          await writeWhole(sftp, temp, bytes, mode, flush && options?.durable === true);
          await call<void>((done) => sftp.chmod(temp, mode, done));
          await call<void>((done) => sftp.ext_openssh_rename(temp, target, done));
        } catch (error) {
          await call<void>((done) => sftp.unlink(temp, done)).catch(() => undefined);
          throw error;
        }
      }),
    rename: (from, to) => run('rename', from, (sftp) => call<void>((done) => sftp.ext_openssh_rename(abs(from), abs(to), done))),
    link: (existing, path) =>
      run('link', existing, (sftp) => call<void>((done) => sftp.ext_openssh_hardlink(abs(existing), abs(path), done))),
    remove: (path) =>
      run('remove', path, async (sftp) => {
        const stats = await call<Stats>((done) => sftp.lstat(abs(path), done));
        if (kindOfMode(stats.mode) === 'directory') throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
        await call<void>((done) => sftp.unlink(abs(path), done));
      }),
    removeEmptyDirectory: (path) => run('rmdir', path, (sftp) => call<void>((done) => sftp.rmdir(abs(path), done))),
    readdir: (path) =>
      run('readdir', path, async (sftp): Promise<WorkspaceDirEntry[]> => {
        const entries = await call<Array<{ filename: string; attrs: Stats }>>((done) => sftp.readdir(abs(path), done));
        return entries
          .filter((entry) => entry.filename !== '.' && entry.filename !== '..')
          .map((entry) => ({ name: entry.filename, kind: kindOfMode(entry.attrs.mode) }));
      }),
    readLink: (path) => run('readlink', path, (sftp) => call<string>((done) => sftp.readlink(abs(path), done))),
    createSymlink: (path, target) =>
      run('symlink', path, async (sftp) => {
        const exists = await call<Stats>((done) => sftp.lstat(abs(path), done)).catch(() => undefined);
        if (exists) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
        await call<void>((done) => sftp.symlink(target, abs(path), done));
      }),
    async findFilesContaining(query) {
      // ripgrep on the host when it has one (0: matches, 1: none); otherwise no opinion, and the files are read over SFTP.
      const outcome = await runScript(REMOTE_RIPGREP_SCRIPT, [root, ...ripgrepFileListArguments(query)]).catch(() => undefined);
      if (!outcome || (outcome.exitCode !== 0 && outcome.exitCode !== 1)) return undefined;
      return parseRipgrepFileList(outcome.stdout.toString('utf8'));
    },
  };
}
