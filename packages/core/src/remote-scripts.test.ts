import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { remoteFindScript, remoteKillScript, REMOTE_START_SCRIPT, remoteStartArguments, ripgrepFileListArguments, parseRipgrepFileList } from './index.js';

// The remote scripts are plain POSIX sh over /proc, so this Linux machine runs them as a remote would.
const linux = process.platform === 'linux' && existsSync('/proc/self/stat');

describe.runIf(linux)('remote scripts', () => {
  it('the start script applies variables over the environment, enters the folder and leads its own process group', () => {
    const args = remoteStartArguments({ file: '/bin/sh', args: ['-c', 'echo "$A|$B|$(pwd)"; s=$(cat /proc/$$/stat); set -- ${s##*) }; [ "$3" = "$$" ] && echo leader'], cwd: '/tmp', env: { A: 'one', B: "it's two" }, rows: 24, cols: 80 });
    const result = spawnSync('/bin/sh', ['-c', REMOTE_START_SCRIPT, ...args], { encoding: 'utf8' });
    expect(result.stdout).toBe("one|it's two|/tmp\nleader\n");
  });

  it('find and kill scripts match a marker exactly or by prefix, and kill the process group', async () => {
    const marker = `ffee${process.pid}-7`;
    const child = spawn('/bin/sh', ['-c', 'sleep 300 & sleep 301 & wait'], { env: { ...process.env, TOOLHOST_SESSION: marker }, detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const run = (script: string) => spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' }).status;
    for (let attempt = 0; attempt < 200 && run(remoteFindScript({ exact: marker })) !== 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
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
