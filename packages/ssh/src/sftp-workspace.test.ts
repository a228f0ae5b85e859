import type { SFTPWrapper } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { createSftpWorkspace } from './sftp-workspace.js';

type Done = (error: Error | null | undefined, value?: unknown) => void;

/**
 * An SFTP session over an in-memory tree holding the folder `/ws`: enough of ssh2's SFTPWrapper for writes, recording
 * every request by name so a test sees which were sent.
 */
function fakeSftp(): { sftp: SFTPWrapper; requests: string[]; files: Map<string, Buffer> } {
  const requests: string[] = [];
  const files = new Map<string, Buffer>();
  const folders = new Set(['/', '/ws']);
  const handles = new Map<string, string>();
  const missing = () => Object.assign(new Error('No such file'), { code: 2 });
  const statOf = (path: string) =>
    folders.has(path) ? { mode: 0o040755, size: 0 } : files.has(path) ? { mode: 0o100644, size: files.get(path)!.length } : undefined;
  const sftp = {
    lstat: (path: string, done: Done) => (requests.push('lstat'), statOf(path) ? done(null, statOf(path)) : done(missing())),
    stat: (path: string, done: Done) => (requests.push('stat'), statOf(path) ? done(null, statOf(path)) : done(missing())),
    mkdir: (path: string, done: Done) => (requests.push('mkdir'), folders.add(path), done(null)),
    open: (path: string, _flags: string, _attributes: unknown, done: Done) => {
      requests.push('open');
      const handle = Buffer.from(String(handles.size));
      handles.set(handle.toString(), path);
      files.set(path, Buffer.alloc(0));
      done(null, handle);
    },
    write: (handle: Buffer, data: Buffer, offset: number, length: number, position: number, done: Done) => {
      requests.push('write');
      const path = handles.get(handle.toString())!;
      const old = files.get(path)!;
      const grown = Buffer.alloc(Math.max(old.length, position + length));
      old.copy(grown);
      data.copy(grown, position, offset, offset + length);
      files.set(path, grown);
      done(null);
    },
    ext_openssh_fsync: (_handle: Buffer, done: Done) => (requests.push('fsync'), done(null)),
    close: (_handle: Buffer, done: Done) => (requests.push('close'), done(null)),
    chmod: (_path: string, _mode: number, done: Done) => (requests.push('chmod'), done(null)),
    ext_openssh_rename: (from: string, to: string, done: Done) => {
      requests.push('rename');
      files.set(to, files.get(from)!);
      files.delete(from);
      done(null);
    },
    unlink: (path: string, done: Done) => (requests.push('unlink'), files.delete(path), done(null)),
  };
  return { sftp: sftp as unknown as SFTPWrapper, requests, files };
}

const noScripts = async () => ({ exitCode: 1, stdout: Buffer.alloc(0), stderr: 'no scripts here' });
const bytes = new TextEncoder().encode('new content\n');

describe('createSftpWorkspace flushing', () => {
  it('flushes a durable write (fsync@openssh.com) before closing it, by default', async () => {
    const { sftp, requests, files } = fakeSftp();
    const workspace = createSftpWorkspace('/ws', '/ws', async () => sftp, noScripts);
    await workspace.writeFile('a.txt', bytes, { durable: true, tempName: '.t.toolhost.tmp' });
    expect(requests.filter((request) => ['open', 'write', 'fsync', 'close', 'rename'].includes(request))).toEqual([
      'open',
      'write',
      'fsync',
      'close',
      'rename',
    ]);
    expect(files.get('/ws/a.txt')?.toString()).toBe('new content\n');
  });

  it('sends no fsync with flush false, durable or not, and writes the same bytes', async () => {
    const { sftp, requests, files } = fakeSftp();
    const workspace = createSftpWorkspace('/ws', '/ws', async () => sftp, noScripts, { flush: false });
    await workspace.writeFile('a.txt', bytes, { durable: true, tempName: '.t.toolhost.tmp' });
    await workspace.writeFile('sub/b.txt', bytes, { durable: true });
    expect(requests).not.toContain('fsync');
    expect(requests.filter((request) => request === 'rename')).toHaveLength(2);
    expect(files.get('/ws/a.txt')?.toString()).toBe('new content\n');
    expect(files.get('/ws/sub/b.txt')?.toString()).toBe('new content\n');
  });
});
