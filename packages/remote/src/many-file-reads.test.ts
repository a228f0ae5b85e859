import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_SHELLS as SHELLS, type LocalShell as Shell } from './__fixtures__/local-shells.js';
import { describe, expect, it } from 'vitest';
import { freshFolders } from '../../../test/helpers/fresh-folders.js';
import { skipWhen } from '../../../test/skip-reason.js';
import { readMany } from './many-file-calls.js';
import { READ_MANY_SCRIPT } from './many-file-scripts.js';
import type { ScriptRunner } from './script-runner.js';

const freshFolder = freshFolders('toolhost-many-reads-');

/** Runs a helper locally as a remote would, `sh -c script sh args…` in `cwd`, counting the runs. */
function localRunner(shell: Shell, cwd: string): { run: ScriptRunner; runs: () => number } {
  let runs = 0;
  const run: ScriptRunner = async (script, args, input) => {
    runs++;
    const [file, ...rest] = shell.command;
    const result = spawnSync(file!, [...rest, '-c', script, 'sh', ...args], { input, cwd, maxBuffer: 64 * 2 ** 20 });
    return { exitCode: result.status ?? 255, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
  };
  return { run, runs: () => runs };
}

/** Bytes by length and digest, so that large files compare with a short message. */
const digest = (bytes: Uint8Array) => ({ length: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });

for (const shell of SHELLS) {
  describe(`readMany with READ_MANY_SCRIPT and ${shell.name}`, skipWhen(shell.missing), () => {
    it('reads every file exactly and in order with one run: text, empty, binary, large, odd names', async () => {
      const root = freshFolder();
      const files: Array<[string, Buffer]> = [
        ['text.txt', Buffer.from('one\ntwo\n')],
        ['empty', Buffer.alloc(0)],
        ['binary', Buffer.from(Array.from({ length: 512 }, (_, index) => index % 256))],
        ['large', randomBytes(200 * 1024)],
        ['with space', Buffer.from('spaced')],
        ['new\nline', Buffer.from('1 2 3 4\n')],
        ['-leading', Buffer.from('dash')],
        ['--', Buffer.from('two dashes')],
        ['-n', Buffer.from('no newline')],
        ['last', Buffer.from('\n\n')],
      ];
      for (const [name, bytes] of files) writeFileSync(join(root, name), bytes);
      const { run, runs } = localRunner(shell, root);
      // Names starting with a dash only matter relative, as the helper is given them; the rest go absolute.
      const paths = files.map(([name]) => (name.startsWith('-') ? name : join(root, name)));
      const read = await readMany(run, paths);
      expect(read?.map(digest)).toEqual(files.map(([, bytes]) => digest(bytes)));
      expect(runs()).toBe(1);
    });

    it('reads the same path named twice twice', async () => {
      const root = freshFolder();
      writeFileSync(join(root, 'a'), 'same bytes');
      writeFileSync(join(root, 'b'), 'other');
      const { run } = localRunner(shell, root);
      const read = await readMany(run, [join(root, 'a'), join(root, 'b'), join(root, 'a')]);
      expect(read?.map((bytes) => Buffer.from(bytes).toString('latin1'))).toEqual(['same bytes', 'other', 'same bytes']);
      expect(read![0]!.byteOffset).not.toBe(read![2]!.byteOffset);
    });

    it('reads a symlink to a file as the file’s bytes, through a chain of links too', async () => {
      const root = freshFolder();
      writeFileSync(join(root, 'target'), 'target bytes');
      symlinkSync(join(root, 'target'), join(root, 'link'));
      symlinkSync('link', join(root, 'link to link'));
      const { run } = localRunner(shell, root);
      const read = await readMany(run, [join(root, 'link'), join(root, 'target'), join(root, 'link to link')]);
      expect(read?.map((bytes) => Buffer.from(bytes).toString('latin1'))).toEqual(['target bytes', 'target bytes', 'target bytes']);
    });

    it.each([
      ['a missing path', (root: string) => join(root, 'missing')],
      [
        'a folder',
        (root: string) => {
          mkdirSync(join(root, 'folder'));
          return join(root, 'folder');
        },
      ],
      [
        'a dangling symlink',
        (root: string) => {
          symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
          return join(root, 'dangling');
        },
      ],
      [
        'a symlink to a folder',
        (root: string) => {
          mkdirSync(join(root, 'folder'));
          symlinkSync(join(root, 'folder'), join(root, 'folder link'));
          return join(root, 'folder link');
        },
      ],
      [
        'a file with times before 1970 (stat prints a negative time)',
        (root: string) => {
          writeFileSync(join(root, 'old'), 'old');
          utimesSync(join(root, 'old'), new Date('1960-01-01T00:00:00Z'), new Date('1960-01-01T00:00:00Z'));
          return join(root, 'old');
        },
      ],
    ])('returns undefined for %s among files, so each is read alone', async (_, make) => {
      const root = freshFolder();
      writeFileSync(join(root, 'good'), 'good');
      const odd = make(root);
      const { run, runs } = localRunner(shell, root);
      expect(await readMany(run, [join(root, 'good'), odd])).toBeUndefined();
      expect(await readMany(run, [odd, join(root, 'good')])).toBeUndefined();
      expect(await readMany(run, [odd])).toBeUndefined();
      expect(runs()).toBe(3);
      // The good file alone still reads.
      expect((await readMany(run, [join(root, 'good')]))?.map((bytes) => Buffer.from(bytes).toString('latin1'))).toEqual(['good']);
    });

    it(
      'returns undefined for a file whose size stat does not tell (a /proc file)',
      skipWhen(existsSync('/proc/version') ? undefined : 'no /proc/version'),
      async () => {
        const root = freshFolder();
        writeFileSync(join(root, 'good'), 'good');
        const { run } = localRunner(shell, root);
        expect(await readMany(run, [join(root, 'good'), '/proc/version'])).toBeUndefined();
      },
    );
  });
}

interface Call {
  script: string;
  args: string[];
  input: Uint8Array | undefined;
}

/** A runner answering every call with `stdout` (and `exitCode`), recording each call. */
function fakeRunner(stdout: Buffer, exitCode = 0): { run: ScriptRunner; calls: Call[] } {
  const calls: Call[] = [];
  const run: ScriptRunner = async (script, args, input) => {
    calls.push({ script, args, input });
    return { exitCode, stdout, stderr: '' };
  };
  return { run, calls };
}

/** A READ_MANY_SCRIPT answer: the listing lines, the bytes, the listing lines again (`after`, else the same). */
function answer(before: string[], bytes: string[], after: string[] = before): Buffer {
  return Buffer.concat([
    Buffer.from(before.map((line) => `${line}\n`).join(''), 'latin1'),
    ...bytes.map((part) => Buffer.from(part, 'latin1')),
    Buffer.from(after.map((line) => `${line}\n`).join(''), 'latin1'),
  ]);
}

const text = (files: Uint8Array[] | undefined) => files?.map((bytes) => Buffer.from(bytes).toString('latin1'));

describe('readMany parsing READ_MANY_SCRIPT’s answer', () => {
  const listed = ['3 11 1700000000 1700000001', '0 12 1700000002 1700000003', '8 13 1700000004 1700000005'];

  it('runs READ_MANY_SCRIPT once with the paths and no input, and cuts the bytes at the listed sizes', async () => {
    const { run, calls } = fakeRunner(answer(listed, ['abc', '', '1 2 3 4\n']));
    const paths = ['/a', '/b c', '-d'];
    expect(text(await readMany(run, paths))).toEqual(['abc', '', '1 2 3 4\n']);
    expect(calls).toEqual([{ script: READ_MANY_SCRIPT, args: paths, input: undefined }]);
    expect(calls[0]!.args).not.toBe(paths);
  });

  it('returns views of the one answer, not copies', async () => {
    const stdout = answer(listed, ['abc', '', '12345678']);
    const { run } = fakeRunner(stdout);
    const files = await readMany(run, ['/a', '/b', '/c']);
    expect(files).toHaveLength(3);
    const start = listed.map((line) => `${line}\n`).join('').length;
    for (const [index, offset] of [start, start + 3, start + 3].entries()) {
      expect(files![index]!.buffer).toBe(stdout.buffer);
      expect(files![index]!.byteOffset).toBe(stdout.byteOffset + offset);
    }
  });

  it.each([
    ['a size', ['3 11 1700000000 1700000001', '0 12 1700000002 1700000003', '9 13 1700000004 1700000005']],
    ['an inode', ['3 11 1700000000 1700000001', '0 99 1700000002 1700000003', '8 13 1700000004 1700000005']],
    ['a change time', ['3 11 1700000009 1700000001', '0 12 1700000002 1700000003', '8 13 1700000004 1700000005']],
    ['a modification time', ['3 11 1700000000 1700000001', '0 12 1700000002 1700000003', '8 13 1700000004 1700000006']],
  ])('returns undefined when %s differs between the listings', async (_, after) => {
    const { run } = fakeRunner(answer(listed, ['abc', '', '12345678'], after));
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it('returns undefined when the listings are in another order', async () => {
    const { run } = fakeRunner(answer(listed, ['abc', '', '12345678'], [listed[2]!, listed[1]!, listed[0]!]));
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it.each([
    ['shorter', ['abc', '', '1234567']],
    ['longer', ['abc', '', '123456789']],
    ['absent', []],
  ])('returns undefined when the bytes are %s than the sizes', async (_, bytes) => {
    const { run } = fakeRunner(answer(listed, bytes));
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it('returns undefined when anything follows the second listing', async () => {
    const { run } = fakeRunner(Buffer.concat([answer(listed, ['abc', '', '12345678']), Buffer.from('\n')]));
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it('returns undefined when the last listing line lacks its newline', async () => {
    const { run } = fakeRunner(answer(listed, ['abc', '', '12345678']).subarray(0, -1));
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it('returns undefined when a listing has fewer lines than paths', async () => {
    const { run } = fakeRunner(answer(listed.slice(0, 2), ['abc', '']));
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it('returns undefined when a size is beyond the answer', async () => {
    const { run } = fakeRunner(answer(['99999999999999999999 11 1700000000 1700000001'], ['abc']));
    expect(await readMany(run, ['/a'])).toBeUndefined();
  });

  it('returns undefined on a non-zero exit, whatever was printed', async () => {
    const { run } = fakeRunner(answer(listed, ['abc', '', '12345678']), 1);
    expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
  });

  it.each([
    ['three numbers', '3 11 1700000000'],
    ['five numbers', '3 11 1700000000 1700000001 7'],
    ['a negative time', '3 11 1700000000 -1'],
    ['a fraction', '3 11 1700000000.5 1700000001'],
    ['a word', 'stat: cannot stat'],
    ['two spaces', '3  11 1700000000 1700000001'],
    ['a trailing space', '3 11 1700000000 1700000001 '],
    ['a carriage return', '3 11 1700000000 1700000001\r'],
    ['nothing', ''],
  ])('returns undefined when a listing line holds %s', async (_, line) => {
    const lines = [line, ...listed.slice(1)];
    for (const stdout of [answer(lines, ['abc', '', '12345678']), answer(listed, ['abc', '', '12345678'], lines)]) {
      const { run } = fakeRunner(stdout);
      expect(await readMany(run, ['/a', '/b', '/c'])).toBeUndefined();
    }
  });

  it('takes bytes that look like listing lines as bytes', async () => {
    const one = ['16 5 1700000000 1700000001'];
    const { run } = fakeRunner(answer(one, ['1 2 3 4\n5 6 7 8\n']));
    expect(text(await readMany(run, ['/a']))).toEqual(['1 2 3 4\n5 6 7 8\n']);
  });
});
