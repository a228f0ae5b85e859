import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { channelOf } from './__fixtures__/local-transport.js';
import { LOCAL_SHELLS as SHELLS, type LocalShell as Shell } from './__fixtures__/local-shells.js';
import { afterEach, describe, expect, it } from 'vitest';
import { freshFolders } from '../../../test/helpers/fresh-folders.js';
import { skipWhen } from '../../../test/skip-reason.js';
import { exactRead, HelperShellPool, rawInputRequest } from './helper-shell.js';
import type { ScriptOutcome } from './script-runner.js';

const MIB = 2 ** 20;

const freshFolder = freshFolders('toolhost-helper-shell-');

/** A started shell process and the moment it exited. */
interface Started {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<void>;
}

interface LocalPool {
  pool: HelperShellPool;
  /** Every shell the pool started, in order. */
  started: Started[];
  /** The folder TMPDIR points at in the shells (where `mktemp` makes their input files). */
  tmp: string;
}

const pools: LocalPool[] = [];

// Registered after freshFolders' hook, so it runs first: shells end before their folders are removed.
afterEach(async () => {
  for (const { pool, started } of pools.splice(0)) {
    await pool.close();
    await Promise.all(started.map((shell) => shell.exited));
  }
});

/** A pool of `size` helper shells, each a local `shell` process reading scripts from its stdin. */
function localPool(shell: Shell, size: number, tmp = freshFolder()): LocalPool {
  const started: Started[] = [];
  const pool = new HelperShellPool(
    async () => {
      const [file, ...args] = shell.command;
      const child = spawn(file!, args, { stdio: 'pipe', env: { ...process.env, TMPDIR: tmp } });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      started.push({ child, exited });
      return channelOf(child);
    },
    size,
    'the local shell may have been killed',
  );
  const local = { pool, started, tmp };
  pools.push(local);
  return local;
}

/** An outcome with its stdout as latin1 text, to compare exactly. */
const plain = (outcome: ScriptOutcome) => ({
  exitCode: outcome.exitCode,
  stdout: outcome.stdout.toString('latin1'),
  stderr: outcome.stderr,
});

/** Bytes by length and digest, so that large inputs compare with a short message. */
const digest = (bytes: Uint8Array) => ({ length: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });

/** Prints `sha256 <digest>` of its input where the shell has sha256sum, else the input itself. */
const DIGEST_SCRIPT = "if command -v sha256sum >/dev/null 2>&1; then printf 'sha256 '; sha256sum | cut -c1-64; else cat; fi";

/** What {@link DIGEST_SCRIPT} printed, as the digest of the bytes it was given. */
function digestOf(stdout: Buffer): { length?: number; sha256: string } {
  const text = stdout.toString('latin1');
  if (/^sha256 [0-9a-f]{64}\n$/.test(text)) return { sha256: text.slice(7, 71) };
  return digest(stdout);
}

/** 1000 bytes holding every byte value, NULs, 0xFF and newlines among them. */
function binaryBytes(): Buffer {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => (index * 7 + 3) % 256));
  bytes[0] = 0;
  bytes[1] = 0xff;
  bytes[2] = 0x0a;
  bytes[999] = 0;
  return bytes;
}

describe('exactRead', () => {
  it('reads nothing for no bytes', () => {
    expect(exactRead(0)).toBe(':');
  });

  it('reads up to 16 MiB as one block of one dd', () => {
    expect(exactRead(1)).toBe('dd bs=1 count=1 iflag=fullblock');
    expect(exactRead(4096)).toBe('dd bs=4096 count=1 iflag=fullblock');
    expect(exactRead(3 * MIB + 7)).toBe(`dd bs=${3 * MIB + 7} count=1 iflag=fullblock`);
    expect(exactRead(16 * MIB)).toBe(`dd bs=${16 * MIB} count=1 iflag=fullblock`);
  });

  it('reads more than 16 MiB a mebibyte a block, the remainder by a second dd, the counts adding up', () => {
    const text = exactRead(16 * MIB + 5);
    expect(text).toBe(`{ dd bs=${MIB} count=16 iflag=fullblock; dd bs=5 count=1 iflag=fullblock; }`);
    const reads = [...text.matchAll(/dd bs=(\d+) count=(\d+) iflag=fullblock/g)].map((read) => Number(read[1]) * Number(read[2]));
    expect(reads.reduce((sum, bytes) => sum + bytes, 0)).toBe(16 * MIB + 5);
    // Whole mebibytes need no second dd.
    expect(exactRead(17 * MIB)).toBe(`{ dd bs=${MIB} count=17 iflag=fullblock; }`);
    const odd = 40 * MIB + MIB - 1;
    expect(exactRead(odd)).toBe(`{ dd bs=${MIB} count=40 iflag=fullblock; dd bs=${MIB - 1} count=1 iflag=fullblock; }`);
  });
});

for (const shell of SHELLS) {
  describe(`exactRead run by ${shell.name}`, skipWhen(shell.missing), () => {
    it.each([0, 1, 5, 65_537, 16 * MIB + 5, 17 * MIB])('takes exactly %i bytes of a pipe and leaves the rest', (size) => {
      const [file, ...args] = shell.command;
      const result = spawnSync(file!, [...args, '-c', `{ ${exactRead(size)} 2>/dev/null | wc -c; wc -c; }`], {
        input: Buffer.alloc(size + 7, 0x61),
      });
      expect(result.status).toBe(0);
      expect(
        result.stdout
          .toString('latin1')
          .split('\n')
          .map((line) => line.trim()),
      ).toEqual([String(size), '7', '']);
    });
  });

  describe(`HelperShellPool.runRaw with ${shell.name}`, skipWhen(shell.missing), () => {
    it('takes the whole input even when its file cannot hold it, and stays in step', async () => {
      const { pool } = localPool(shell, 1);
      expect(plain(await pool.runRaw('cat', [], Buffer.from('first')))).toEqual({ exitCode: 0, stdout: 'first', stderr: '' });
      // The input file turned into a folder: writing the next input fails at once, as on a full disk.
      const broken = await pool.run('rm -f -- "$toolhost_input" && mkdir -- "$toolhost_input" && echo broken', []);
      expect(broken.stdout.toString()).toBe('broken\n');
      const input = Buffer.from(`${'x'.repeat(70_000)}\ntouch injected-proof\n`);
      const failed = await pool.runRaw('cat', [], input);
      expect(failed.exitCode).not.toBe(0);
      expect(failed.stdout.length).toBe(0);
      expect((await pool.run('[ -e injected-proof ] && echo found || echo none; rmdir -- "$toolhost_input"', [])).stdout.toString()).toBe(
        'none\n',
      );
      expect(plain(await pool.runRaw('cat', [], Buffer.from('after')))).toEqual({ exitCode: 0, stdout: 'after', stderr: '' });
    });

    // A shell reads its program in pieces (dash 8192 bytes, busybox 1023) and runs a brace group once it has read the
    // closing line; a request ending near a piece's end must still leave nothing of itself in the pipe for the input.
    it('hands over the input exactly whatever the request’s length, across the shell’s read sizes', async () => {
      const { pool } = localPool(shell, 1);
      expect(await pool.takesRawInput()).toBe(true);
      const marker = ':toolhost-0123456789abcdef:';
      const base = rawInputRequest('#\ncat', [], 23, marker).length;
      const input = Buffer.from('; touch injected-proof\n');
      for (const edge of [1023, 2046, 8192]) {
        for (let length = edge - 60; length <= edge + 4; length++) {
          const script = `#${'x'.repeat(length - base)}\ncat`;
          expect(rawInputRequest(script, [], input.length, marker).length).toBe(length);
          const outcome = await pool.runRaw(script, [], input);
          expect(plain(outcome)).toEqual({ exitCode: 0, stdout: input.toString('latin1'), stderr: '' });
        }
      }
      expect((await pool.run('[ -e injected-proof ] && echo found || echo none', [])).stdout.toString()).toBe('none\n');
    });

    it('finds that dd reads exactly from a pipe, asking once', async () => {
      const { pool } = localPool(shell, 1);
      const first = pool.takesRawInput();
      expect(pool.takesRawInput()).toBe(first);
      expect(await first).toBe(true);
    });

    it('hands a script exactly its input: none, text, binary bytes', async () => {
      const { pool } = localPool(shell, 1);
      expect(plain(await pool.runRaw('cat', [], new Uint8Array()))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      const counted = await pool.runRaw('wc -c', [], new Uint8Array());
      expect(counted.stdout.toString('latin1').trim()).toBe('0');
      expect(plain(await pool.runRaw('cat', [], Buffer.from('one\ntwo\n\nthree')))).toEqual({
        exitCode: 0,
        stdout: 'one\ntwo\n\nthree',
        stderr: '',
      });
      const binary = binaryBytes();
      const echoed = await pool.runRaw('cat', [], binary);
      expect(echoed.exitCode).toBe(0);
      expect(echoed.stdout.toString('hex')).toBe(binary.toString('hex'));
      const length = await pool.runRaw('wc -c', [], binary);
      expect(length.stdout.toString('latin1').trim()).toBe('1000');
    });

    it('hands a script a 3 MiB input exactly', async () => {
      const { pool } = localPool(shell, 1);
      const input = randomBytes(3 * MIB);
      const echoed = await pool.runRaw('cat', [], input);
      expect(echoed.exitCode).toBe(0);
      expect(digest(echoed.stdout)).toEqual(digest(input));
      const digested = await pool.runRaw(DIGEST_SCRIPT, [], input);
      expect(digestOf(digested.stdout).sha256).toBe(digest(input).sha256);
    });

    it('hands a script an input of more than 16 MiB exactly (a dd of whole mebibytes, then the remainder)', async () => {
      const { pool } = localPool(shell, 1);
      const input = randomBytes(17 * MIB + 123);
      const counted = await pool.runRaw('wc -c', [], input);
      expect(plain(counted)).toEqual({ exitCode: 0, stdout: expect.stringMatching(/^\s*17825915\n$/), stderr: '' });
      const digested = await pool.runRaw(DIGEST_SCRIPT, [], input);
      expect(digested.exitCode).toBe(0);
      expect(digestOf(digested.stdout).sha256).toBe(digest(input).sha256);
      // Not a byte too many nor too few was taken: the shell is in step for the next request.
      expect(plain(await pool.runRaw('cat', [], Buffer.from('next')))).toEqual({ exitCode: 0, stdout: 'next', stderr: '' });
      expect(plain(await pool.run('printf %s "$1"', ['after']))).toEqual({ exitCode: 0, stdout: 'after', stderr: '' });
    });

    it('gives the script its arguments as $1 $2 … with spaces, quotes and newlines kept', async () => {
      const { pool } = localPool(shell, 1);
      const args = ['a b', "it's", 'say "hi"', 'one\ntwo\n', '', '$HOME `id` \\ * ;|&', '-n'];
      const outcome = await pool.runRaw('printf "%s\\n" "$#"; for a; do printf "[%s]" "$a"; done; cat', args, Buffer.from('<in>'));
      expect(plain(outcome)).toEqual({ exitCode: 0, stdout: `7\n${args.map((arg) => `[${arg}]`).join('')}<in>`, stderr: '' });
    });

    it('gives back the script’s stdout and stderr apart, exactly, and its exit code', async () => {
      const { pool } = localPool(shell, 1);
      expect(plain(await pool.runRaw('printf out; printf err >&2; exit 3', [], new Uint8Array()))).toEqual({
        exitCode: 3,
        stdout: 'out',
        stderr: 'err',
      });
      expect(plain(await pool.runRaw("tr a-z A-Z; printf 'line one\\nline two\\n' >&2", [], Buffer.from('abc\n')))).toEqual({
        exitCode: 0,
        stdout: 'ABC\n',
        stderr: 'line one\nline two\n',
      });
      // A request's errors are its own: the next one without any has none.
      expect(plain(await pool.runRaw('cat; exit 0', [], Buffer.from('quiet')))).toEqual({ exitCode: 0, stdout: 'quiet', stderr: '' });
      // A script that exits early, leaving its input unread, ends only its own subshell.
      expect(plain(await pool.runRaw('exit 41', [], randomBytes(100_000)))).toEqual({ exitCode: 41, stdout: '', stderr: '' });
      expect(plain(await pool.runRaw('head -c 3; exit 1', [], Buffer.from('abcdef')))).toEqual({ exitCode: 1, stdout: 'abc', stderr: '' });
    });

    it('keeps each request’s input its own, raw requests and plain ones one after another on one shell', async () => {
      const { pool, started } = localPool(shell, 1);
      const sizes = [0, 1, 4095, 4096, 65_536, 65_537, 200_000, 3];
      for (const [index, size] of sizes.entries()) {
        const input = randomBytes(size);
        const raw = await pool.runRaw(`cat; printf '%s' "$1" >&2`, [`raw ${index}`], input);
        expect(raw.exitCode).toBe(0);
        expect(digest(raw.stdout)).toEqual(digest(input));
        expect(raw.stderr).toBe(`raw ${index}`);
        // A script that reads none of its input: the input is taken all the same.
        expect(plain(await pool.runRaw('printf unread', [], input))).toEqual({ exitCode: 0, stdout: 'unread', stderr: '' });
        expect(plain(await pool.run('printf "%s" "$1"', [`plain ${index}`]))).toEqual({
          exitCode: 0,
          stdout: `plain ${index}`,
          stderr: '',
        });
        const encoded = await pool.run('cat', [], Buffer.from(`encoded ${index}`));
        expect(plain(encoded)).toEqual({ exitCode: 0, stdout: `encoded ${index}`, stderr: '' });
      }
      const batch = await pool.runBatch([
        { script: 'printf "%s" "$1"', args: ['first'] },
        { script: 'cat', args: [], input: Buffer.from('second') },
      ]);
      expect(batch.map(plain)).toEqual([
        { exitCode: 0, stdout: 'first', stderr: '' },
        { exitCode: 0, stdout: 'second', stderr: '' },
      ]);
      expect(started).toHaveLength(1);
    });

    it('keeps each request’s input its own when many are sent at once to a pool of two shells', async () => {
      const { pool, started } = localPool(shell, 2);
      const inputs = Array.from({ length: 16 }, (_, index) => randomBytes([0, 10, 5000, 70_000, 300_000][index % 5]!));
      const outcomes = await Promise.all(
        inputs.map((input, index) =>
          index % 3 === 2
            ? pool.run('printf "%s" "$1"', [`plain ${index}`])
            : pool.runRaw(`printf '%s:' "$1"; cat; printf '%s' "$1" >&2`, [`raw ${index}`], input),
        ),
      );
      for (const [index, outcome] of outcomes.entries()) {
        if (index % 3 === 2) {
          expect(plain(outcome)).toEqual({ exitCode: 0, stdout: `plain ${index}`, stderr: '' });
          continue;
        }
        expect(outcome.exitCode).toBe(0);
        expect(outcome.stderr).toBe(`raw ${index}`);
        expect(digest(outcome.stdout)).toEqual(digest(Buffer.concat([Buffer.from(`raw ${index}:`), inputs[index]!])));
      }
      expect(started).toHaveLength(2);
    });

    it('empties the shell’s input file after each request, reuses it, and removes it when the shell ends', async () => {
      const { pool, started, tmp } = localPool(shell, 1);
      expect(plain(await pool.runRaw('cat >/dev/null; printf oops >&2', [], Buffer.from('secret bytes')))).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: 'oops',
      });
      // Plain requests run in a subshell of the same shell, so they see its variable.
      const path = (await pool.run('printf %s "$toolhost_input"', [])).stdout.toString('utf8');
      expect(path.startsWith(`${tmp}/`)).toBe(true);
      expect(statSync(path).size).toBe(0);
      expect(statSync(`${path}.e`).size).toBe(0);
      const sizes = await pool.run('wc -c < "$toolhost_input"; wc -c < "$toolhost_input.e"', []);
      expect(
        sizes.stdout
          .toString('latin1')
          .split('\n')
          .map((line) => line.trim()),
      ).toEqual(['0', '0', '']);

      expect(plain(await pool.runRaw('cat', [], Buffer.from('again')))).toEqual({ exitCode: 0, stdout: 'again', stderr: '' });
      expect((await pool.run('printf %s "$toolhost_input"', [])).stdout.toString('utf8')).toBe(path);
      expect(statSync(path).size).toBe(0);
      expect(readdirSync(tmp).sort()).toEqual([path.slice(tmp.length + 1), `${path.slice(tmp.length + 1)}.e`].sort());

      await pool.close();
      await started[0]!.exited;
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.e`)).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    });

    it('still takes the input when no input file can be made, so the shell stays in step (the script reads nothing)', async () => {
      const { pool } = localPool(shell, 1, join(freshFolder(), 'missing'));
      expect(await pool.takesRawInput()).toBe(true);
      expect(plain(await pool.runRaw('cat; printf lost >&2', [], Buffer.from('hello\nexit 9\n')))).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: '',
      });
      expect((await pool.run('printf "[%s]" "$toolhost_input"', [])).stdout.toString('latin1')).toBe('[]');
      expect(plain(await pool.run('printf "%s" "$1"', ['in step']))).toEqual({ exitCode: 0, stdout: 'in step', stderr: '' });
      expect(plain(await pool.runRaw('printf "%s" "$1"; exit 4', ['again'], randomBytes(70_000)))).toEqual({
        exitCode: 4,
        stdout: 'again',
        stderr: '',
      });
    });
  });
}
