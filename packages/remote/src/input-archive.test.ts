import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWhen } from '../../../test/skip-reason.js';
import { inputArchive, namedArchive, ustarName } from './input-archive.js';
import { freshFolders } from '../../../test/helpers/fresh-folders.js';

const hasBusybox = existsSync('/usr/bin/busybox') || existsSync('/bin/busybox');

const freshFolder = freshFolders('toolhost-input-archive-');

/** 1000 random bytes that surely hold NUL and 0xFF bytes (and the other edge bytes a naive writer mangles). */
function binaryBytes(): Buffer {
  const bytes = randomBytes(1000);
  bytes[0] = 0x00;
  bytes[1] = 0xff;
  bytes[2] = 0x0a;
  bytes[3] = 0x0d;
  bytes[511] = 0x00;
  bytes[512] = 0xff;
  bytes[999] = 0x00;
  return bytes;
}

/** The files of the tests: short text, empty, exactly a block, binary over a block boundary. */
function sampleFiles(): Buffer[] {
  return [Buffer.from('hello\n'), Buffer.alloc(0), Buffer.alloc(512, 0x61), binaryBytes()];
}

/** Unpacks `archive` with `tar` into a fresh folder and returns what each of `count` entries holds. */
function unpack(archive: Buffer, tar: string[] = ['tar']): { folder: string; names: string[]; files: Buffer[] } {
  const folder = freshFolder();
  const [file, ...args] = tar as [string, ...string[]];
  const result = spawnSync(file, [...args, '-xf', '-', '-C', folder], { input: archive });
  expect(result.stderr.toString()).toBe('');
  expect(result.status).toBe(0);
  const names = readdirSync(folder).sort((a, b) => Number(a) - Number(b));
  return { folder, names, files: names.map((name) => readFileSync(join(folder, name))) };
}

describe('inputArchive', () => {
  it('is the header and data blocks of each file, padded to 512 bytes, ended by two empty blocks', () => {
    const files = sampleFiles();
    const archive = inputArchive(files);
    // Headers: 4 blocks; data: 1 (6 bytes) + 0 (empty) + 1 (512 bytes) + 2 (1000 bytes); end: 2.
    expect(archive.byteLength).toBe(10 * 512);
    expect(archive.subarray(512, 518).toString('latin1')).toBe('hello\n');
    expect(archive.subarray(518, 1024).equals(Buffer.alloc(506))).toBe(true);
    expect(archive.subarray(8 * 512).equals(Buffer.alloc(1024))).toBe(true);
    expect(archive.subarray(0, 2).toString('latin1')).toBe('0\0');
    expect(archive.subarray(124, 136).toString('latin1')).toBe('00000000006\0');
    expect(archive.subarray(257, 265).toString('latin1')).toBe('ustar\x0000');
    expect(inputArchive([]).equals(Buffer.alloc(1024))).toBe(true);
  });

  it('unpacks with the system tar to exactly the given bytes, named 0, 1, 2, …', () => {
    const files = sampleFiles();
    const { names, files: unpacked } = unpack(inputArchive(files));
    expect(names).toEqual(['0', '1', '2', '3']);
    expect(unpacked.map((file) => file.toString('hex'))).toEqual(files.map((file) => file.toString('hex')));
    expect(unpacked.map((file) => file.byteLength)).toEqual([6, 0, 512, 1000]);
  });

  it('takes the bytes of a view into a larger buffer, not the whole buffer', () => {
    const whole = Buffer.from('0123456789');
    const view = new Uint8Array(whole.buffer, whole.byteOffset + 3, 4);
    const { names, files } = unpack(inputArchive([view, whole.subarray(8)]));
    expect(names).toEqual(['0', '1']);
    expect(files.map((file) => file.toString('latin1'))).toEqual(['3456', '89']);
  });

  it('names past 9 files with more digits, in order', () => {
    const files = Array.from({ length: 12 }, (_, index) => Buffer.from(`file ${index}`));
    const { names, files: unpacked } = unpack(inputArchive(files));
    expect(names).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
    expect(unpacked.map((file) => file.toString('latin1'))).toEqual(files.map((file) => file.toString('latin1')));
  });

  it('is listed by `tar -tvf -` in order: regular files, mode 600, owner 0/0, their sizes', () => {
    const result = spawnSync('tar', ['-tvf', '-'], { input: inputArchive(sampleFiles()), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s+/))
      .map(([mode, owner, size, , , name]) => ({ mode, owner, size, name }));
    expect(rows).toEqual([
      { mode: '-rw-------', owner: '0/0', size: '6', name: '0' },
      { mode: '-rw-------', owner: '0/0', size: '0', name: '1' },
      { mode: '-rw-------', owner: '0/0', size: '512', name: '2' },
      { mode: '-rw-------', owner: '0/0', size: '1000', name: '3' },
    ]);
    const names = spawnSync('tar', ['-tf', '-'], { input: inputArchive(sampleFiles()), encoding: 'utf8' });
    expect(names.stdout).toBe('0\n1\n2\n3\n');
  });

  it('of no files is an empty archive tar lists as nothing', () => {
    const result = spawnSync('tar', ['-tf', '-'], { input: inputArchive([]), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('unpacks with busybox tar to the same bytes', skipWhen(hasBusybox ? undefined : 'busybox is not installed'), () => {
    const files = sampleFiles();
    const { names, files: unpacked } = unpack(inputArchive(files), ['busybox', 'tar']);
    expect(names).toEqual(['0', '1', '2', '3']);
    expect(unpacked.map((file) => file.toString('hex'))).toEqual(files.map((file) => file.toString('hex')));
  });
});

describe('namedArchive', () => {
  it('holds a file given as pieces exactly as the same file given whole, pieces of every size included', () => {
    const whole = binaryBytes();
    const pieces = [whole.subarray(0, 0), whole.subarray(0, 511), whole.subarray(511, 513), whole.subarray(513, 513), whole.subarray(513)];
    const entries = (file: Uint8Array | readonly Uint8Array[]) => [
      { path: 'a/pieces.bin', file },
      { path: 'b.txt', file: Buffer.from('after\n') },
    ];
    const fromPieces = namedArchive(entries(pieces))!;
    expect(fromPieces.equals(namedArchive(entries(whole))!)).toBe(true);
    expect(fromPieces.subarray(124, 136).toString('latin1')).toBe('00000001750\0');
  });

  const deep = `${'a-folder-name-of-some-length/'.repeat(5)}file-with-a-name-of-its-own.txt`;
  const utf8 = 'dossier/été/fichier – ünïcode.txt';

  for (const [name, tar] of [
    ['the system tar', ['tar']],
    ['busybox tar', ['busybox', 'tar']],
  ] as const) {
    it(
      `unpacks with ${name} to the paths given: short, UTF-8, and past the name field (its folders in the prefix)`,
      { skip: name.startsWith('busybox') && !hasBusybox },
      () => {
        const folder = freshFolder();
        const files = [Buffer.from('short'), Buffer.from('unicode'), binaryBytes()];
        const archive = namedArchive([
          { path: 'top.txt', file: files[0]! },
          { path: utf8, file: files[1]! },
          { path: deep, file: files[2]! },
        ]);
        const [command, ...args] = tar as unknown as [string, ...string[]];
        const result = spawnSync(command, [...args, '-xf', '-', '-C', folder], { input: archive });
        expect(result.stderr.toString()).toBe('');
        expect(result.status).toBe(0);
        expect([readFileSync(join(folder, 'top.txt')), readFileSync(join(folder, utf8)), readFileSync(join(folder, deep))]).toEqual(files);
      },
    );
  }

  it('splits a long path at the first folder that leaves at most 100 bytes of name, or refuses it', () => {
    expect(Buffer.byteLength(deep)).toBeGreaterThan(100);
    const fields = ustarName(deep)!;
    expect(fields.name.toString()).toBe(deep.slice(fields.prefix.length + 1));
    expect(fields.name.length).toBeLessThanOrEqual(100);
    expect(fields.prefix.length).toBeLessThanOrEqual(155);
    expect(ustarName('x'.repeat(100))?.prefix.length).toBe(0);
    // A last part over 100 bytes, a prefix over 155, a path ending in `/`, an empty path or a NUL fit nowhere.
    expect(ustarName(`folder/${'y'.repeat(101)}`)).toBeUndefined();
    expect(ustarName(`${'p'.repeat(156)}/name`)).toBeUndefined();
    expect(ustarName(`${'z'.repeat(120)}/`)).toBeUndefined();
    expect(ustarName('')).toBeUndefined();
    expect(ustarName('a\0b')).toBeUndefined();
    expect(namedArchive([{ path: `folder/${'y'.repeat(101)}`, file: Buffer.from('x') }])).toBeUndefined();
  });
});
