import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { LOCAL_SHELLS as SHELLS, type LocalShell as Shell } from './__fixtures__/local-shells.js';
import { describe, expect, it } from 'vitest';
import { skipWhen } from '../../../test/skip-reason.js';
import { LINK_SCRIPT, REMOVE_SCRIPT, WRITE_SCRIPT } from './file-scripts.js';
import { joinFileBytes } from '@toolhost/core';
import { namedArchive } from './input-archive.js';
import { linkMany, removeMany, writeMany, type WriteRequest } from './many-file-calls.js';
import { LINK_TAR_SCRIPT, WRITE_MANY_SCRIPT, writeArchiveName } from './many-file-scripts.js';
import { newTrailerMarker, type ScriptOutcome, type ScriptRunner } from './script-runner.js';
import { batchInputsUnsaved } from './script-steps.js';
import { freshFolders } from '../../../test/helpers/fresh-folders.js';

const freshFolder = freshFolders('toolhost-many-files-');

interface RunOptions {
  /** The umask the helper starts with (else this process's). */
  umask?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

interface LocalRunner {
  run: ScriptRunner;
  /** The fresh folder TMPDIR points at (unless `env` sets it), so what a helper leaves in it is seen. */
  tmp: string;
  /** The folder the helper runs in: `cwd`, else a fresh folder, so what a helper writes there is seen. */
  cwd: string;
}

/** Runs a helper locally as a remote would: `sh -c script sh args…`, its input raw. */
function localRunner(shell: Shell, options: RunOptions = {}): LocalRunner {
  const tmp = freshFolder();
  const cwd = options.cwd ?? freshFolder();
  const run: ScriptRunner = async (script, args, input) => {
    const command = [...shell.command, '-c', script, 'sh', ...args];
    const [file, ...rest] = options.umask === undefined ? command : ['/bin/sh', '-c', 'umask "$0" && exec "$@"', options.umask, ...command];
    const result = spawnSync(file!, rest, { input, cwd, env: { ...process.env, TMPDIR: tmp, ...options.env } });
    return { exitCode: result.status ?? 255, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
  };
  return { run, tmp, cwd };
}

interface Entry {
  path: string;
  kind: 'file' | 'folder' | 'symlink';
  mode?: string;
  links?: number;
  bytes?: string;
  target?: string;
}

/** Everything under `root`, sorted: kinds, modes (octal), link counts, bytes (latin1) and symlink targets. */
function tree(root: string): Entry[] {
  const entries: Entry[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(join(root, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      const full = join(root, path);
      const stat = lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) entries.push({ path, kind: 'symlink', target: readlinkSync(full) });
      else if (stat.isDirectory()) {
        entries.push({ path, kind: 'folder', mode });
        walk(path);
      } else entries.push({ path, kind: 'file', mode, links: stat.nlink, bytes: readFileSync(full).toString('latin1') });
    }
  };
  walk('');
  return entries;
}

/** Makes a file with exactly these bytes and mode. */
function file(path: string, bytes: string | Buffer, mode = 0o644): void {
  writeFileSync(path, bytes);
  chmodSync(path, mode);
}

/** What `setup` makes in a fresh folder: what a call that changes nothing leaves. */
function untouched(setup: (root: string) => void): Entry[] {
  const root = freshFolder();
  setup(root);
  return tree(root);
}

const TEMP = /\.toolhost\.tmp$/;

interface Compared {
  root: string;
  outcomes: ScriptOutcome[];
}

/**
 * Sets up two identical folders with `setup`; runs `many` in one and `one` for each request in turn in the other, and
 * checks they end alike: the same exit codes, the same messages (the folders' names aside), the same files. Each
 * call's TMPDIR is left empty and its stdout holds nothing.
 */
async function compareWithOneFile<R>(
  shell: Shell,
  setup: (root: string) => void,
  requests: (root: string) => R[],
  many: (run: ScriptRunner, requests: readonly R[]) => Promise<ScriptOutcome[] | undefined>,
  one: (run: ScriptRunner, request: R) => Promise<ScriptOutcome>,
  options: RunOptions & { inRoot?: boolean; sameMessages?: boolean } = {},
): Promise<Compared> {
  const [manyRoot, oneRoot] = [freshFolder(), freshFolder()] as const;
  setup(manyRoot);
  setup(oneRoot);
  const manyRunner = localRunner(shell, { ...options, cwd: options.inRoot ? manyRoot : undefined });
  const oneRunner = localRunner(shell, { ...options, cwd: options.inRoot ? oneRoot : undefined });
  const outcomes = await many(manyRunner.run, requests(manyRoot));
  expect(outcomes).toBeDefined();
  const single: ScriptOutcome[] = [];
  for (const request of requests(oneRoot)) single.push(await one(oneRunner.run, request));
  expect(outcomes!.map((outcome) => outcome.exitCode)).toEqual(single.map((outcome) => outcome.exitCode));
  if (options.sameMessages !== false) {
    expect(outcomes!.map((outcome) => outcome.stderr.replaceAll(manyRoot, '<root>'))).toEqual(
      single.map((outcome) => outcome.stderr.replaceAll(oneRoot, '<root>')),
    );
  }
  expect(outcomes!.map((outcome) => outcome.stdout.toString('latin1'))).toEqual(single.map(() => ''));
  expect(tree(manyRoot)).toEqual(tree(oneRoot));
  expect(tree(manyRoot).filter((entry) => TEMP.test(entry.path))).toEqual([]);
  expect(readdirSync(manyRunner.tmp)).toEqual([]);
  expect(readdirSync(oneRunner.tmp)).toEqual([]);
  if (!options.inRoot) {
    // Nothing lands in the folder the helper runs in (a relative path resolved against it).
    expect(readdirSync(manyRunner.cwd)).toEqual([]);
    expect(readdirSync(oneRunner.cwd)).toEqual([]);
  }
  return { root: manyRoot, outcomes: outcomes! };
}

interface Write {
  /** Relative to the test's folder. */
  target: string;
  data: string | Buffer;
  mode?: string;
  durable?: boolean;
  defer?: boolean;
}

function writeRequests(writes: readonly Write[], tempFolder = false): (root: string) => WriteRequest[] {
  return (root) =>
    writes.map((write, index) => ({
      tempFolder,
      args: [`${root}/${write.target}`, `.w${index}.toolhost.tmp`, write.mode ?? '', write.durable ? '1' : '', write.defer ? '1' : ''],
      data: typeof write.data === 'string' ? Buffer.from(write.data, 'latin1') : write.data,
    }));
}

/**
 * Writes with {@link writeMany}, compared with WRITE_SCRIPT run for each file, once with temp files and once with
 * temp folders (renamed by one mv a folder); returns the exit codes and folder of the second.
 */
async function compareWrites(shell: Shell, setup: (root: string) => void, writes: readonly Write[], options: RunOptions = {}) {
  const compare = (tempFolder: boolean) =>
    compareWithOneFile(
      shell,
      setup,
      writeRequests(writes, tempFolder),
      writeMany,
      (run, request) => run(WRITE_SCRIPT, request.args, joinFileBytes(request.data)),
      { umask: '022', ...options },
    );
  const plain = await compare(false);
  const compared = await compare(true);
  expect(compared.outcomes.map((outcome) => outcome.exitCode)).toEqual(plain.outcomes.map((outcome) => outcome.exitCode));
  return { ...compared, codes: compared.outcomes.map((outcome) => outcome.exitCode) };
}

/** 1000 random bytes that surely hold NUL, 0xFF and line ends. */
function binaryBytes(): Buffer {
  const bytes = randomBytes(1000);
  bytes.set([0x00, 0xff, 0x0a, 0x0d], 0);
  bytes[999] = 0x00;
  return bytes;
}

const nothing = () => {};

for (const shell of SHELLS) {
  describe(`WRITE_MANY_SCRIPT with ${shell.name}`, skipWhen(shell.missing), () => {
    it('writes several files with their exact bytes: text, empty, binary, large, over an existing file', async () => {
      const binary = binaryBytes();
      const large = Buffer.alloc(100_000, 'abc\n');
      const { codes, root } = await compareWrites(shell, (root) => file(join(root, 'old'), 'old content that is longer'), [
        { target: 'text', data: 'hello\n' },
        { target: 'empty', data: '' },
        { target: 'binary', data: binary },
        { target: 'large', data: large },
        { target: 'old', data: 'new' },
        { target: 'no newline', data: 'x' },
      ]);
      expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
      expect(tree(root)).toEqual([
        { path: 'binary', kind: 'file', mode: '644', links: 1, bytes: binary.toString('latin1') },
        { path: 'empty', kind: 'file', mode: '644', links: 1, bytes: '' },
        { path: 'large', kind: 'file', mode: '644', links: 1, bytes: large.toString('latin1') },
        { path: 'no newline', kind: 'file', mode: '644', links: 1, bytes: 'x' },
        { path: 'old', kind: 'file', mode: '644', links: 1, bytes: 'new' },
        { path: 'text', kind: 'file', mode: '644', links: 1, bytes: 'hello\n' },
      ]);
    });

    it('writes files whose names hold spaces, quotes, newlines, dashes and shell syntax', async () => {
      const names = ['a b', "it's", 'line\nbreak', '-rf', '--', '$(echo x) `id` $HOME *', 'trailing\n'];
      const { codes, root } = await compareWrites(
        shell,
        (root) => mkdirSync(join(root, 'sub dir')),
        names.map((name, index) => ({ target: `sub dir/${name}`, data: `file ${index}` })),
      );
      expect(codes).toEqual(names.map(() => 0));
      expect(readdirSync(join(root, 'sub dir')).sort()).toEqual([...names].sort());
      expect(names.map((name) => readFileSync(join(root, 'sub dir', name), 'latin1'))).toEqual(names.map((_, index) => `file ${index}`));
    });

    it('creates the missing folders of new files', async () => {
      const { codes, root } = await compareWrites(shell, nothing, [
        { target: 'x/y/z/new', data: 'deep' },
        { target: 'x/other', data: 'shallow' },
        { target: 'x/y/z/second', data: 'same folder' },
      ]);
      expect(codes).toEqual([0, 0, 0]);
      expect(tree(root)).toEqual([
        { path: 'x', kind: 'folder', mode: '755' },
        { path: 'x/other', kind: 'file', mode: '644', links: 1, bytes: 'shallow' },
        { path: 'x/y', kind: 'folder', mode: '755' },
        { path: 'x/y/z', kind: 'folder', mode: '755' },
        { path: 'x/y/z/new', kind: 'file', mode: '644', links: 1, bytes: 'deep' },
        { path: 'x/y/z/second', kind: 'file', mode: '644', links: 1, bytes: 'same folder' },
      ]);
    });

    it('writes through a symlink to its target, keeping the link and the target’s mode', async () => {
      const setup = (root: string) => {
        file(join(root, 'real'), 'old', 0o600);
        symlinkSync('real', join(root, 'link'));
        symlinkSync('link', join(root, 'chain'));
        mkdirSync(join(root, 'a'));
        mkdirSync(join(root, 'b'));
        file(join(root, 'b/other'), 'old other', 0o640);
        symlinkSync('../b/other', join(root, 'a/elsewhere'));
      };
      const { codes, root } = await compareWrites(shell, setup, [
        { target: 'link', data: 'through the link' },
        { target: 'a/elsewhere', data: 'through a link to another folder' },
      ]);
      expect(codes).toEqual([0, 0]);
      expect(tree(root)).toEqual([
        { path: 'a', kind: 'folder', mode: '755' },
        { path: 'a/elsewhere', kind: 'symlink', target: '../b/other' },
        { path: 'b', kind: 'folder', mode: '755' },
        { path: 'b/other', kind: 'file', mode: '640', links: 1, bytes: 'through a link to another folder' },
        { path: 'chain', kind: 'symlink', target: 'link' },
        { path: 'link', kind: 'symlink', target: 'real' },
        { path: 'real', kind: 'file', mode: '600', links: 1, bytes: 'through the link' },
      ]);
      const chained = await compareWrites(shell, setup, [{ target: 'chain', data: 'through two links' }]);
      expect(chained.codes).toEqual([0]);
      expect(readFileSync(join(chained.root, 'real'), 'latin1')).toBe('through two links');
      expect(lstatSync(join(chained.root, 'chain')).isSymbolicLink()).toBe(true);
      expect(lstatSync(join(chained.root, 'link')).isSymbolicLink()).toBe(true);
    });

    it('answers 2 for a symlink whose target cannot be resolved (its folder is missing), writing nothing anywhere', async () => {
      const setup = (root: string) => {
        mkdirSync(join(root, 'links'));
        symlinkSync('no such folder/made', join(root, 'links/unresolvable'));
        file(join(root, 'plain'), 'old');
      };
      const { codes, root } = await compareWrites(shell, setup, [
        { target: 'links/unresolvable', data: 'nowhere' },
        { target: 'plain', data: 'new' },
      ]);
      expect(codes).toEqual([2, 0]);
      expect(tree(root)).toEqual([
        { path: 'links', kind: 'folder', mode: '755' },
        { path: 'links/unresolvable', kind: 'symlink', target: 'no such folder/made' },
        { path: 'plain', kind: 'file', mode: '644', links: 1, bytes: 'new' },
      ]);
    });

    it('writes a dangling symlink’s target into being, beside the link, keeping the link', async () => {
      // busybox 1.35's `readlink -f` resolves a dangling link's relative target against the working folder; both
      // helpers resolve from the link's folder, so the file lands beside the link.
      const setup = (root: string) => {
        mkdirSync(join(root, 'links'));
        symlinkSync('made', join(root, 'links/dangling'));
      };
      const { codes, root } = await compareWrites(shell, setup, [{ target: 'links/dangling', data: 'now there' }]);
      expect(codes).toEqual([0]);
      expect(tree(root)).toEqual([
        { path: 'links', kind: 'folder', mode: '755' },
        { path: 'links/dangling', kind: 'symlink', target: 'made' },
        { path: 'links/made', kind: 'file', mode: '644', links: 1, bytes: 'now there' },
      ]);
    });

    it('fails a folder target with 21, that file only: the others are written', async () => {
      const setup = (root: string) => {
        mkdirSync(join(root, 'folder'));
        file(join(root, 'folder/inside'), 'kept');
        symlinkSync('folder', join(root, 'folder link'));
      };
      const { codes, root, outcomes } = await compareWrites(shell, setup, [
        { target: 'before', data: 'one' },
        { target: 'folder', data: 'not written' },
        { target: 'folder link', data: 'not written either' },
        { target: 'after', data: 'two' },
      ]);
      expect(codes).toEqual([0, 21, 21, 0]);
      expect(outcomes.map((outcome) => outcome.stderr)).toEqual(['', '', '', '']);
      expect(tree(root)).toEqual([
        { path: 'after', kind: 'file', mode: '644', links: 1, bytes: 'two' },
        { path: 'before', kind: 'file', mode: '644', links: 1, bytes: 'one' },
        { path: 'folder', kind: 'folder', mode: '755' },
        { path: 'folder/inside', kind: 'file', mode: '644', links: 1, bytes: 'kept' },
        { path: 'folder link', kind: 'symlink', target: 'folder' },
      ]);
    });

    it('fails a file whose parent path is a regular file with 20, saying why; the others are written', async () => {
      const { codes, root, outcomes } = await compareWrites(shell, (root) => file(join(root, 'plain'), 'a file'), [
        { target: 'plain/child', data: 'x' },
        { target: 'fine', data: 'written' },
        { target: 'plain/deeper/child', data: 'y' },
      ]);
      expect(codes).toEqual([20, 0, 20]);
      expect(outcomes[0]!.stderr).toMatch(/^mkdir: .+\n$/);
      expect(outcomes[1]!.stderr).toBe('');
      expect(outcomes[2]!.stderr).toMatch(/^mkdir: .+\n$/);
      expect(tree(root)).toEqual([
        { path: 'fine', kind: 'file', mode: '644', links: 1, bytes: 'written' },
        { path: 'plain', kind: 'file', mode: '644', links: 1, bytes: 'a file' },
      ]);
    });

    it('applies an explicit mode, over an existing target’s too', async () => {
      const setup = (root: string) => {
        file(join(root, 'was 751'), 'old', 0o751);
        file(join(root, 'was 600'), 'old', 0o600);
      };
      const { codes, root } = await compareWrites(shell, setup, [
        { target: 'exec', data: '#!/bin/sh\n', mode: '755' },
        { target: 'secret', data: 's', mode: '600' },
        { target: 'plain', data: 'p', mode: '644' },
        { target: 'private 1', data: '1', mode: '700' },
        { target: 'private 2', data: '2', mode: '700' },
        { target: 'none', data: 'n', mode: '0' },
        { target: 'setuid', data: 'u', mode: '4755' },
        { target: 'was 751', data: 'new', mode: '640' },
        { target: 'was 600', data: 'new', mode: '666' },
      ]);
      expect(codes).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(tree(root).map((entry) => [entry.path, entry.mode, entry.bytes])).toEqual([
        ['exec', '755', '#!/bin/sh\n'],
        ['none', '0', 'n'],
        ['plain', '644', 'p'],
        ['private 1', '700', '1'],
        ['private 2', '700', '2'],
        ['secret', '600', 's'],
        ['setuid', '4755', 'u'],
        ['was 600', '666', 'new'],
        ['was 751', '640', 'new'],
      ]);
    });

    it.each(['022', '027', '077', '000'])(
      'without a mode keeps an existing target’s, and gives a new file 0666 & ~umask (umask %s)',
      async (umask) => {
        const setup = (root: string) => {
          file(join(root, 'was 751'), 'old', 0o751);
          file(join(root, 'was 600'), 'old', 0o600);
          file(join(root, 'was 644'), 'old', 0o644);
          file(join(root, 'was 640'), 'old', 0o640);
          file(join(root, 'was 4711'), 'old', 0o4711);
        };
        const targets = ['was 751', 'new 1', 'was 600', 'was 644', 'was 640', 'was 4711', 'new 2'];
        const { codes, root } = await compareWrites(
          shell,
          setup,
          targets.map((target) => ({ target, data: `${target} now` })),
          { umask },
        );
        expect(codes).toEqual(targets.map(() => 0));
        const fresh = (0o666 & ~parseInt(umask, 8)).toString(8);
        expect(tree(root).map((entry) => [entry.path, entry.mode, entry.bytes])).toEqual([
          ['new 1', fresh, 'new 1 now'],
          ['new 2', fresh, 'new 2 now'],
          ['was 4711', '4711', 'was 4711 now'],
          ['was 600', '600', 'was 600 now'],
          ['was 640', '640', 'was 640 now'],
          ['was 644', '644', 'was 644 now'],
          ['was 751', '751', 'was 751 now'],
        ]);
      },
    );

    it('writes durable files, with the folder flush deferred or not, as any other', async () => {
      const { codes, root } = await compareWrites(shell, (root) => file(join(root, 'kept mode'), 'old', 0o600), [
        { target: 'durable', data: 'd', durable: true },
        { target: 'deferred', data: 'f', durable: true, defer: true },
        { target: 'defer only', data: 'o', defer: true },
        { target: 'sub/durable with mode', data: 'm', durable: true, mode: '700' },
        { target: 'kept mode', data: 'k', durable: true },
      ]);
      expect(codes).toEqual([0, 0, 0, 0, 0]);
      expect(tree(root).map((entry) => [entry.path, entry.mode, entry.bytes])).toEqual([
        ['defer only', '644', 'o'],
        ['deferred', '644', 'f'],
        ['durable', '644', 'd'],
        ['kept mode', '600', 'k'],
        ['sub', '755', undefined],
        ['sub/durable with mode', '700', 'm'],
      ]);
    });

    it('leaves no temp file in any folder, failures included', async () => {
      const setup = (root: string) => {
        mkdirSync(join(root, 'a/b'), { recursive: true });
        mkdirSync(join(root, 'a/folder'));
        file(join(root, 'a/plain'), 'p');
        file(join(root, 'a/b/real'), 'r');
        symlinkSync('b/real', join(root, 'a/link'));
      };
      const { codes, root } = await compareWrites(shell, setup, [
        { target: 'a/b/one', data: '1', durable: true },
        { target: 'a/folder', data: 'x' },
        { target: 'a/link', data: 'via link', mode: '600' },
        { target: 'a/plain/x', data: 'x' },
        { target: 'top', data: 't', mode: '700' },
      ]);
      expect(codes).toEqual([0, 21, 0, 20, 0]);
      expect(tree(root).map((entry) => entry.path)).toEqual(['a', 'a/b', 'a/b/one', 'a/b/real', 'a/folder', 'a/link', 'a/plain', 'top']);
    });

    for (const folder of ['', '1']) {
      const named = folder ? ', temp folders' : '';
      it(`renames nothing when its input lacks a file: removes what it unpacked and says its inputs were not saved${named}`, async () => {
        const root = freshFolder();
        file(join(root, 'second'), 'untouched');
        const { run, tmp } = localRunner(shell);
        const marker = newTrailerMarker();
        const args = [`${root}/first`, '.a.toolhost.tmp', '', '', '', folder, `${root}/second`, '.b.toolhost.tmp', '', '', '', folder];
        // Two files, an archive of the first one's temp file only.
        const path = writeArchiveName(`${root}/first`, '.a.toolhost.tmp', folder === '1');
        const archive = namedArchive([{ path, file: Buffer.from('only one') }]);
        const outcome = await run(WRITE_MANY_SCRIPT, [marker, ...args], archive);
        expect(outcome.stdout.toString('latin1')).toBe(`${marker}inputs\n`);
        expect(outcome.exitCode).toBe(0);
        expect(tree(root)).toEqual([{ path: 'second', kind: 'file', mode: '644', links: 1, bytes: 'untouched' }]);
        expect(readdirSync(tmp)).toEqual([]);
      });
    }

    it('needs no temporary folder: its temp files are unpacked beside their targets', async () => {
      const root = freshFolder();
      const nowhere = join(root, 'no such folder');
      const { run } = localRunner(shell, { env: { TMPDIR: nowhere } });
      const outcomes = await writeMany(
        run,
        writeRequests([
          { target: 'new/file', data: 'a' },
          { target: 'other', data: 'b' },
        ])(root),
      );
      expect(outcomes?.map((outcome) => outcome.exitCode)).toEqual([0, 0]);
      expect(tree(root).map((entry) => [entry.path, entry.bytes])).toEqual([
        ['new', undefined],
        ['new/file', 'a'],
        ['other', 'b'],
      ]);
    });

    it('writes files whose temp paths are longer than a tar header’s name field (the folders go to its prefix)', async () => {
      const deep = `${'folder-with-a-long-name/'.repeat(4)}and-more`;
      const name = `${'n'.repeat(70)}.txt`;
      const { codes, root } = await compareWrites(shell, nothing, [
        { target: `${deep}/${name}`, data: 'deep and long' },
        { target: 'short', data: 'short' },
      ]);
      expect(codes).toEqual([0, 0]);
      expect(readFileSync(join(root, deep, name), 'utf8')).toBe('deep and long');
    });

    for (const folder of ['', '1']) {
      const named = folder ? ', temp folders' : '';
      it(`writes nothing, says its inputs were not saved and removes its folder, when the input is not a tar${named}`, async () => {
        const root = freshFolder();
        const { run, tmp } = localRunner(shell);
        const marker = newTrailerMarker();
        const args = [marker, `${root}/file`, '.t.toolhost.tmp', '', '', '', folder];
        const outcome = await run(WRITE_MANY_SCRIPT, args, Buffer.from('not a tar\n'));
        expect(outcome.stdout.toString('latin1')).toBe(`${marker}inputs\n`);
        expect(outcome.stderr).toBe('');
        expect(outcome.exitCode).toBe(0);
        expect(batchInputsUnsaved(outcome.stdout, marker)).toBe(true);
        expect(tree(root)).toEqual([]);
        expect(readdirSync(tmp)).toEqual([]);
      });
    }
  });

  describe(`REMOVE_MANY_SCRIPT with ${shell.name}`, skipWhen(shell.missing), () => {
    const compareRemoves = async (setup: (root: string) => void, paths: readonly string[], options: { inRoot?: boolean } = {}) => {
      const compared = await compareWithOneFile(
        shell,
        setup,
        (root) => paths.map((path) => (options.inRoot ? path : `${root}/${path}`)),
        removeMany,
        (run, path) => run(REMOVE_SCRIPT, [path]),
        options,
      );
      expect(compared.outcomes.map((outcome) => outcome.stderr)).toEqual(paths.map(() => ''));
      return { ...compared, codes: compared.outcomes.map((outcome) => outcome.exitCode) };
    };

    const setup = (root: string) => {
      file(join(root, 'file'), 'f');
      file(join(root, 'target'), 't');
      symlinkSync('target', join(root, 'link'));
      symlinkSync('nowhere', join(root, 'dangling'));
      mkdirSync(join(root, 'folder'));
      file(join(root, 'folder/inside'), 'i');
      mkdirSync(join(root, 'empty folder'));
      symlinkSync('folder', join(root, 'folder link'));
    };

    it('removes regular files and symlinks, keeping the links’ targets', async () => {
      const { codes, root } = await compareRemoves(setup, ['file', 'link', 'dangling', 'folder link']);
      expect(codes).toEqual([0, 0, 0, 0]);
      expect(tree(root).map((entry) => entry.path)).toEqual(['empty folder', 'folder', 'folder/inside', 'target']);
    });

    it('answers 2 for a missing path and 21 for a folder, removing neither', async () => {
      const { codes, root } = await compareRemoves(setup, ['missing', 'folder', 'empty folder', 'missing/below', 'file/below']);
      expect(codes).toEqual([2, 21, 21, 2, 2]);
      expect(tree(root)).toEqual(untouched(setup));
    });

    it('answers each path of a mixed call, in order', async () => {
      const { codes, root } = await compareRemoves(setup, [
        'missing',
        'file',
        'folder',
        'link',
        'gone',
        'target',
        'empty folder',
        'dangling',
      ]);
      expect(codes).toEqual([2, 0, 21, 0, 2, 0, 21, 0]);
      expect(tree(root).map((entry) => entry.path)).toEqual(['empty folder', 'folder', 'folder/inside', 'folder link']);
    });

    it('removes paths with spaces, newlines, leading dashes and shell syntax, given whole or from their folder', async () => {
      const names = ['-rf', '--', '-', '!', '=', 'a b', 'line\nbreak', 'trailing\n', '*', '$(echo x) `id`'];
      const special = (root: string) => {
        for (const name of names) file(join(root, name), name);
        mkdirSync(join(root, '-folder'));
      };
      const paths = [...names, '-missing', '-folder'];
      const expected = [...names.map(() => 0), 2, 21];
      for (const inRoot of [false, true]) {
        const { codes, root } = await compareRemoves(special, paths, { inRoot });
        expect(codes).toEqual(expected);
        expect(tree(root).map((entry) => entry.path)).toEqual(['-folder']);
      }
    });

    it('answers nothing for no paths', async () => {
      const { run } = localRunner(shell);
      expect(await removeMany(run, [])).toEqual([]);
    });
  });

  const linkWays: ReadonlyArray<readonly [string, typeof linkMany]> = [
    ['LINK_MANY_SCRIPT (one ln a link)', (run, pairs) => linkMany(run, pairs)],
    ['LINK_TAR_SCRIPT (one tar, its input raw)', (run, pairs) => linkMany(run, pairs, run)],
  ];
  for (const [way, linkWay] of linkWays)
    describe(`${way} with ${shell.name}`, skipWhen(shell.missing), () => {
      const compareLinks = async (setup: (root: string) => void, pairs: ReadonlyArray<readonly [string, string]>, inRoot = false) => {
        const compared = await compareWithOneFile(
          shell,
          setup,
          (root) =>
            pairs.map(([existing, name]): readonly [string, string] =>
              inRoot ? [existing, name] : [`${root}/${existing}`, `${root}/${name}`],
            ),
          linkWay,
          (run, pair) => run(LINK_SCRIPT, [...pair]),
          // ln's messages are dropped: a failed link says only its exit code.
          { inRoot, sameMessages: false },
        );
        expect(compared.outcomes.map((outcome) => outcome.stderr)).toEqual(pairs.map(() => ''));
        return { ...compared, codes: compared.outcomes.map((outcome) => outcome.exitCode) };
      };

      const setup = (root: string) => {
        file(join(root, 'file'), 'f', 0o640);
        file(join(root, 'other'), 'o');
        symlinkSync('file', join(root, 'link'));
        symlinkSync('nowhere', join(root, 'dangling'));
        mkdirSync(join(root, 'folder'));
      };

      it('answers independent links in one call, failures among them, each as ln would', async () => {
        const { codes, root } = await compareLinks(setup, [
          ['file', 'a'],
          ['missing', 'b'],
          ['other', 'file 3'],
          ['file', 'other'],
          ['folder', 'e'],
          ['other', 'no such folder/f'],
          ['link', 'g'],
          ['dangling', 'h'],
          ['other', 'folder/i'],
        ]);
        expect(codes).toEqual([0, 2, 0, 17, 1, 1, 0, 0, 0]);
        expect(statSync(join(root, 'a')).ino).toBe(statSync(join(root, 'file')).ino);
        expect(statSync(join(root, 'folder/i')).ino).toBe(statSync(join(root, 'other')).ino);
        expect(lstatSync(join(root, 'h')).isSymbolicLink()).toBe(true);
        expect(existsSync(join(root, 'no such folder'))).toBe(false);
      });

      it('makes hard links: the same file under both names', async () => {
        const { codes, root, outcomes } = await compareLinks(setup, [
          ['file', 'file 2'],
          ['other', 'folder/other'],
        ]);
        expect(codes).toEqual([0, 0]);
        expect(outcomes.map((outcome) => outcome.stderr)).toEqual(['', '']);
        expect(statSync(join(root, 'file 2')).ino).toBe(statSync(join(root, 'file')).ino);
        expect(statSync(join(root, 'folder/other')).ino).toBe(statSync(join(root, 'other')).ino);
        expect(tree(root).filter((entry) => entry.kind === 'file')).toEqual([
          { path: 'file', kind: 'file', mode: '640', links: 2, bytes: 'f' },
          { path: 'file 2', kind: 'file', mode: '640', links: 2, bytes: 'f' },
          { path: 'folder/other', kind: 'file', mode: '644', links: 2, bytes: 'o' },
          { path: 'other', kind: 'file', mode: '644', links: 2, bytes: 'o' },
        ]);
      });

      it('links a symlink itself, never its target', async () => {
        const { codes, root } = await compareLinks(setup, [
          ['link', 'link 2'],
          ['dangling', 'dangling 2'],
        ]);
        expect(codes).toEqual([0, 0]);
        for (const [existing, name, target] of [
          ['link', 'link 2', 'file'],
          ['dangling', 'dangling 2', 'nowhere'],
        ] as const) {
          const made = lstatSync(join(root, name));
          expect(made.isSymbolicLink()).toBe(true);
          expect(made.ino).toBe(lstatSync(join(root, existing)).ino);
          expect(made.nlink).toBe(2);
          expect(readlinkSync(join(root, name))).toBe(target);
        }
        expect(lstatSync(join(root, 'file')).nlink).toBe(1);
      });

      it('answers 2 for a missing existing file and 17 for a name already there, changing nothing', async () => {
        const { codes, root } = await compareLinks(setup, [
          ['missing', 'new'],
          ['file', 'other'],
          ['file', 'link'],
          ['file', 'dangling'],
          ['file', 'folder'],
          ['missing', 'other'],
        ]);
        expect(codes).toEqual([2, 17, 17, 17, 17, 2]);
        expect(tree(root)).toEqual(untouched(setup));
      });

      it('answers each pair of a mixed call, in order, each seeing the links made before it', async () => {
        const { codes, root } = await compareLinks(setup, [
          ['file', 'a'],
          ['missing', 'b'],
          ['a', 'c'],
          ['file', 'a'],
          ['link', 'd'],
          ['other', 'file'],
          ['folder', 'e'],
          ['other', 'no such folder/f'],
        ]);
        expect(codes).toEqual([0, 2, 0, 17, 0, 17, 1, 1]);
        expect(statSync(join(root, 'c')).ino).toBe(statSync(join(root, 'file')).ino);
        expect(lstatSync(join(root, 'file')).nlink).toBe(3);
        expect(tree(root).map((entry) => entry.path)).toEqual(['a', 'c', 'd', 'dangling', 'file', 'folder', 'link', 'other']);
      });

      it('links names with spaces, newlines, leading dashes and shell syntax, given whole or from their folder', async () => {
        const names = ['-rf', '--', '-', '!', 'a b', 'line\nbreak', '*', '$(echo x) `id`'];
        const special = (root: string) => {
          for (const name of names) file(join(root, name), name);
        };
        for (const inRoot of [false, true]) {
          const { codes, root } = await compareLinks(
            special,
            names.map((name) => [name, `${name}-linked`] as const),
            inRoot,
          );
          expect(codes).toEqual(names.map(() => 0));
          expect(names.map((name) => statSync(join(root, `${name}-linked`)).ino)).toEqual(
            names.map((name) => statSync(join(root, name)).ino),
          );
        }
      });
    });
}

/** A fresh folder of links to `names`, found on this machine's PATH: a PATH holding only those commands. */
function commandFolder(names: readonly string[]): string {
  const folder = freshFolder();
  for (const name of names) {
    const found = spawnSync('/bin/sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' }).stdout.trim();
    expect(found).toMatch(/^\//);
    symlinkSync(found, join(folder, name));
  }
  return folder;
}

describe('WRITE_MANY_SCRIPT with /bin/sh and no tar', () => {
  /** A folder of links to the commands WRITE_MANY_SCRIPT runs, `tar` among them only when asked. */
  const commands = (withTar: boolean) =>
    commandFolder(['mktemp', 'rm', 'cat', 'mkdir', 'readlink', 'stat', 'chmod', 'sync', 'mv', ...(withTar ? ['tar'] : [])]);

  it('writes nothing, says its inputs were not saved and removes its folder', async () => {
    const shell = SHELLS[0]!;
    const requests = writeRequests([
      { target: 'new/file', data: 'a' },
      { target: 'other', data: 'b', mode: '600' },
    ]);
    // With tar the same commands write both files: the folder holds everything else the script needs.
    const complete = localRunner(shell, { env: { PATH: commands(true) } });
    const written = freshFolder();
    expect((await writeMany(complete.run, requests(written)))?.map((outcome) => outcome.exitCode)).toEqual([0, 0]);
    expect(tree(written).map((entry) => [entry.path, entry.bytes])).toEqual([
      ['new', undefined],
      ['new/file', 'a'],
      ['other', 'b'],
    ]);
    const root = freshFolder();
    const { run, tmp } = localRunner(shell, { env: { PATH: commands(false) } });
    expect(await writeMany(run, requests(root))).toBeUndefined();
    expect(tree(root)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(readdirSync(complete.tmp)).toEqual([]);
  });
});

describe('LINK_TAR_SCRIPT with /bin/sh and the commands it is given', () => {
  const setup = (root: string) => {
    file(join(root, 'one'), '1');
    file(join(root, 'two'), '2');
  };

  it('makes every link with tar alone (no ln to fall back on)', async () => {
    const root = freshFolder();
    setup(root);
    const { run } = localRunner(SHELLS[0]!, { env: { PATH: commandFolder(['tar']) } });
    const outcomes = await linkMany(
      run,
      [
        [`${root}/one`, `${root}/.one.old`],
        [`${root}/two`, `${root}/.two.old`],
      ],
      run,
    );
    expect(outcomes.map((outcome) => outcome.exitCode)).toEqual([0, 0]);
    expect(statSync(join(root, '.one.old')).ino).toBe(statSync(join(root, 'one')).ino);
    expect(statSync(join(root, '.two.old')).ino).toBe(statSync(join(root, 'two')).ino);
  });

  it('without tar says its inputs were not saved, so linkMany makes the links with ln', async () => {
    const root = freshFolder();
    setup(root);
    const { run } = localRunner(SHELLS[0]!, { env: { PATH: commandFolder(['ln']) } });
    const marker = newTrailerMarker();
    const outcome = await run(LINK_TAR_SCRIPT, [marker, `${root}/one`, `${root}/.one.old`], Buffer.alloc(0));
    expect(outcome.stdout.toString('latin1')).toBe(`${marker}inputs\n`);
    expect(existsSync(join(root, '.one.old'))).toBe(false);
    const outcomes = await linkMany(
      run,
      [
        [`${root}/one`, `${root}/.one.old`],
        [`${root}/two`, `${root}/.two.old`],
      ],
      run,
    );
    expect(outcomes.map((each) => each.exitCode)).toEqual([0, 0]);
    expect(statSync(join(root, '.two.old')).ino).toBe(statSync(join(root, 'two')).ino);
  });
});

// These fail: the many-file scripts look at every path before changing any, so a path given twice is not seen as the
// first operation left it, as it is when the one-file helpers run one after the other.
describe('the same path twice in one call', () => {
  const shell = SHELLS[0]!;

  // One after the other, the second removal finds the path gone and the second write sees the first's mode; a batch
  // decides both up front, so the calls decline such a batch and the workspace makes each call on its own.
  it('removeMany declines paths named twice, running nothing', async () => {
    const root = freshFolder();
    file(join(root, 'file'), 'f');
    const runner = localRunner(shell, {});
    expect(await removeMany(runner.run, [`${root}/file`, `${root}/file`])).toBeUndefined();
    expect(tree(root)).toEqual([{ path: 'file', kind: 'file', mode: '644', links: 1, bytes: 'f' }]);
  });

  it('writeMany declines a target named twice, running nothing', async () => {
    const root = freshFolder();
    file(join(root, 'was 600'), 'old', 0o600);
    const runner = localRunner(shell, {});
    const requests = writeRequests([
      { target: 'was 600', data: 'first', mode: '755' },
      { target: 'was 600', data: 'second' },
    ])(root);
    expect(await writeMany(runner.run, requests)).toBeUndefined();
    expect(tree(root)).toEqual([{ path: 'was 600', kind: 'file', mode: '600', links: 1, bytes: 'old' }]);
  });
});
