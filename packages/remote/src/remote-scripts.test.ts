import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { skipWhen } from '../../../test/skip-reason.js';
import { remoteFindScript, remoteKillScript, REMOTE_START_SCRIPT, remoteStartArguments } from './index.js';
import { ExitSentinelScanner, newSentinelNonce, ripgrepFileListArguments, parseRipgrepFileList } from '@toolhost/core';

// The remote scripts are plain POSIX sh over /proc, so this Linux machine runs them as a remote would.
const linux = process.platform === 'linux' && existsSync('/proc/self/stat');

describe('remote scripts', skipWhen(linux ? undefined : 'the remote scripts read /proc: Linux only'), () => {
  it('the start script applies variables over the environment, enters the folder, leads its own process group and ends with the exit sentinel', () => {
    const nonce = newSentinelNonce();
    const args = remoteStartArguments(
      {
        file: '/bin/sh',
        args: ['-c', 'echo "$A|$B|$(pwd)"; s=$(cat /proc/$$/stat); set -- ${s##*) }; [ "$3" = "$$" ] && echo leader; exit 7'],
        cwd: '/tmp',
        env: { A: 'one', B: "it's two" },
        rows: 24,
        cols: 80,
      },
      nonce,
    );
    const result = spawnSync('/bin/sh', ['-c', REMOTE_START_SCRIPT, ...args], { encoding: 'utf8' });
    expect(result.stdout).toBe(`one|it's two|/tmp\nleader\n\u001b]777;${nonce};7\u0007`);
    expect(result.status).toBe(7);
    const scanner = new ExitSentinelScanner(nonce);
    const scanned = [...Buffer.from(result.stdout)].map((byte) => scanner.scan(Uint8Array.of(byte)));
    expect(Buffer.concat(scanned.map((scan) => scan.output)).toString()).toBe("one|it's two|/tmp\nleader\n");
    expect(scanned.at(-1)?.exitCode).toBe(7);
  });

  it('the start script reports 126 for a missing folder, and a command killed by a signal as 128+n', () => {
    const nonce = newSentinelNonce();
    const missing = spawnSync(
      '/bin/sh',
      [
        '-c',
        REMOTE_START_SCRIPT,
        ...remoteStartArguments({ file: 'true', args: [], cwd: '/nonexistent-toolhost', env: {}, rows: 24, cols: 80 }, nonce),
      ],
      { encoding: 'utf8' },
    );
    expect(missing.stdout).toBe(`\u001b]777;${nonce};126\u0007`);
    expect(missing.status).toBe(126);
    const killed = spawnSync(
      '/bin/sh',
      [
        '-c',
        REMOTE_START_SCRIPT,
        ...remoteStartArguments({ file: '/bin/sh', args: ['-c', 'kill -TERM $$'], cwd: '/tmp', env: {}, rows: 24, cols: 80 }, nonce),
      ],
      { encoding: 'utf8' },
    );
    expect(killed.stdout).toBe(`\u001b]777;${nonce};143\u0007`);
  });

  it('the exit sentinel scanner keeps lookalikes and bytes split across chunks, and passes output after the sentinel', () => {
    const scanner = new ExitSentinelScanner('ABC');
    const chunks = ['x\u001b]777;AB', 'D;1\u0007 \u001b]7', '77;ABC;', '42', '\u0007after'];
    const scans = chunks.map((chunk) => scanner.scan(Buffer.from(chunk, 'latin1')));
    expect(Buffer.concat(scans.map((scan) => scan.output)).toString('latin1')).toBe('x\u001b]777;ABD;1\u0007 after');
    expect(scans.map((scan) => scan.exitCode)).toEqual([undefined, undefined, undefined, undefined, 42]);
    expect(scanner.complete).toBe(true);
    const unfinished = new ExitSentinelScanner('ABC');
    expect(Buffer.from(unfinished.scan(Buffer.from('tail\u001b]77')).output).toString()).toBe('tail');
    expect(Buffer.from(unfinished.flush()).toString()).toBe('\u001b]77');
  });

  it('find and kill scripts match a marker exactly or by prefix, and kill the process group', async () => {
    const marker = `ffee${process.pid}-7`;
    const child = spawn('/bin/sh', ['-c', 'sleep 300 & sleep 301 & wait'], {
      env: { ...process.env, TOOLHOST_SESSION: marker },
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const run = (script: string) => spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' }).status;
    for (let attempt = 0; attempt < 200 && run(remoteFindScript({ exact: marker })) !== 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(run(remoteFindScript({ exact: marker }))).toBe(0);
    expect(run(remoteFindScript({ exact: `${marker}0` }))).toBe(1);
    expect(run(remoteFindScript({ prefix: `ffee${process.pid}-` }))).toBe(0);
    expect(run(remoteKillScript({ prefix: `ffee${process.pid}-` }))).toBe(0);
    await exited;
    expect(run(remoteFindScript({ exact: marker }))).toBe(1);
  });

  it('refuses markers that could escape the script', () => {
    expect(() => remoteFindScript({ exact: "x'; rm -rf /" })).toThrow(/invalid process marker/);
  });
});

describe('ripgrep file lists', () => {
  it('builds fixed-string arguments with extension globs and parses NUL-separated paths', () => {
    const args = ripgrepFileListArguments({ text: '-needle', caseSensitive: false, start: 'src', extensions: new Set(['ts']) });
    expect(args).toContain('--ignore-case');
    expect(args.slice(-5)).toEqual(['*.ts', '--regexp', '-needle', '--', 'src']);
    expect(parseRipgrepFileList('./a.ts\0src/b.ts\0')).toEqual(new Set(['a.ts', 'src/b.ts']));
  });
});
