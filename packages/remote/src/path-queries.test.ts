import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatherPathQueries, pathQueryScript, queryPaths } from './path-queries.js';
import type { ScriptRunner } from './script-runner.js';

/** Runs a helper with this machine's sh, as a remote would, recording the arguments of each run. */
function localRunner(): { run: ScriptRunner; calls: string[][] } {
  const calls: string[][] = [];
  const run: ScriptRunner = async (script, args) => {
    calls.push(args);
    const result = spawnSync('/bin/sh', ['-c', script, 'sh', ...args]);
    return { exitCode: result.status ?? 255, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
  };
  return { run, calls };
}

const LSTAT = pathQueryScript('[ -e "$p" ] || [ -L "$p" ]', "stat -c '%F|%s' --");
const STAT = pathQueryScript('[ -e "$p" ]', "stat -L -c '%F|%s' --");
const same = (line: string) => line;

let folder = '';
let file = '';
let link = '';
let dangling = '';
let missing = '';

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-path-queries-'));
  file = join(folder, 'file');
  link = join(folder, 'link');
  dangling = join(folder, 'dangling');
  missing = join(folder, 'missing');
  writeFileSync(file, 'hello');
  symlinkSync('file', link);
  symlinkSync('nowhere', dangling);
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('pathQueryScript and queryPaths', () => {
  it('answer each path in order, undefined for a path the test does not keep', async () => {
    const { run, calls } = localRunner();
    expect(await queryPaths(run, LSTAT, [file, link, missing, dangling], same)).toEqual([
      'regular file|5',
      'symbolic link|4',
      undefined,
      'symbolic link|7',
    ]);
    expect(await queryPaths(run, STAT, [dangling, link, missing, file], same)).toEqual([
      undefined,
      'regular file|5',
      undefined,
      'regular file|5',
    ]);
    expect(calls).toEqual([
      [file, link, missing, dangling],
      [dangling, link, missing, file],
    ]);
  });

  it('hand the command only the kept paths, in order, whatever they hold', async () => {
    const spaced = join(folder, "a 'quoted' name");
    writeFileSync(spaced, '');
    const { run } = localRunner();
    const echo = pathQueryScript('[ -e "$p" ] || [ -L "$p" ]', `printf '%s\\n'`);
    expect(await queryPaths(run, echo, [missing, spaced, dangling, missing, file], same)).toEqual([
      undefined,
      spaced,
      dangling,
      undefined,
      file,
    ]);
  });

  it('parse each kept line', async () => {
    const { run } = localRunner();
    const parse = (line: string) => {
      const [kind, size] = line.split('|');
      return { kind, size: Number(size) };
    };
    expect(await queryPaths(run, LSTAT, [link, file], parse)).toEqual([
      { kind: 'symbolic link', size: 4 },
      { kind: 'regular file', size: 5 },
    ]);
  });

  it('answer without running the command when no path is kept, and answer no paths with nothing', async () => {
    const { run } = localRunner();
    const failing = pathQueryScript('[ -e "$p" ]', 'false');
    expect(await queryPaths(run, failing, [missing, dangling], same)).toEqual([undefined, undefined]);
    expect(await queryPaths(run, LSTAT, [], same)).toEqual([]);
  });

  it('give no answer when the command fails for a path', async () => {
    const { run } = localRunner();
    // Keeps the missing path too: stat fails for it, so none of the lines can be trusted.
    const everything = pathQueryScript('true', "stat -c '%F|%s' --");
    expect(await queryPaths(run, everything, [file, missing], same)).toBeUndefined();
  });

  it('give no answer when a kept name holds a line break the command prints', async () => {
    const broken = join(folder, 'line\nbreak');
    writeFileSync(broken, 'abc');
    const { run } = localRunner();
    const realpath = pathQueryScript('[ -e "$p" ]', 'realpath');
    const real = realpathSync(folder);
    expect(await queryPaths(run, realpath, [link, missing], same)).toEqual([join(real, 'file'), undefined]);
    expect(await queryPaths(run, realpath, [link, broken, missing], same)).toBeUndefined();
    expect(await queryPaths(run, realpath, [broken], same)).toBeUndefined();
    const trailing = join(folder, 'trailing\n');
    writeFileSync(trailing, '');
    expect(await queryPaths(run, realpath, [trailing], same)).toBeUndefined();
    // A missing name with a line break is not kept, so the command never prints it.
    expect(await queryPaths(run, realpath, [join(folder, 'missing\nname'), file], same)).toEqual([undefined, join(real, 'file')]);
    // A command that prints no names answers exactly whatever the names hold.
    expect(await queryPaths(run, LSTAT, [broken, file], same)).toEqual(['regular file|3', 'regular file|5']);
  });
});

/** A `many` and a `one` recording their calls; `many` answers with `manyAnswer` (by default `many:` and the path). */
function fakeQueries(manyAnswer?: (paths: readonly string[]) => Promise<string[] | undefined>) {
  const manyCalls: string[][] = [];
  const oneCalls: string[] = [];
  const many = (paths: readonly string[]) => {
    manyCalls.push([...paths]);
    return manyAnswer ? manyAnswer(paths) : Promise.resolve(paths.map((path) => `many:${path}`));
  };
  const one = async (path: string) => {
    oneCalls.push(path);
    if (path === 'bad') throw new Error('one failed for bad');
    return `one:${path}`;
  };
  return { manyCalls, oneCalls, query: gatherPathQueries(many, one) };
}

describe('gatherPathQueries', () => {
  it('sends the paths asked in one turn to many once, each resolving with its own answer', async () => {
    const { manyCalls, oneCalls, query } = fakeQueries();
    expect(await Promise.all(['a', 'b', 'c'].map(query))).toEqual(['many:a', 'many:b', 'many:c']);
    expect(manyCalls).toEqual([['a', 'b', 'c']]);
    expect(oneCalls).toEqual([]);
  });

  it('sends a path asked alone to one, and keeps the paths of different turns apart', async () => {
    const { manyCalls, oneCalls, query } = fakeQueries();
    expect(await query('alone')).toBe('one:alone');
    const first = query('x');
    await new Promise<void>((resolve) => setImmediate(resolve));
    const second = query('y');
    expect(await Promise.all([first, second])).toEqual(['one:x', 'one:y']);
    expect(await Promise.all([query('p'), query('q')])).toEqual(['many:p', 'many:q']);
    expect(oneCalls).toEqual(['alone', 'x', 'y']);
    expect(manyCalls).toEqual([['p', 'q']]);
  });

  it('falls back to one for each path when many gives no answer', async () => {
    const { manyCalls, oneCalls, query } = fakeQueries(async () => undefined);
    expect(await Promise.all(['a', 'b', 'c'].map(query))).toEqual(['one:a', 'one:b', 'one:c']);
    expect(manyCalls).toEqual([['a', 'b', 'c']]);
    expect(oneCalls).toEqual(['a', 'b', 'c']);
  });

  it('falls back to one for each path when many rejects, one’s failure rejecting only its path', async () => {
    const { manyCalls, oneCalls, query } = fakeQueries(() => Promise.reject(new Error('many failed')));
    const settled = await Promise.allSettled(['a', 'bad', 'c'].map(query));
    expect(settled.map((each) => (each.status === 'fulfilled' ? each.value : (each.reason as Error).message))).toEqual([
      'one:a',
      'one failed for bad',
      'one:c',
    ]);
    expect(manyCalls).toEqual([['a', 'bad', 'c']]);
    expect(oneCalls).toEqual(['a', 'bad', 'c']);
  });

  it('answers lstat of paths asked together with one local process', async () => {
    const { run, calls } = localRunner();
    const oneCalls: string[] = [];
    const lstat = gatherPathQueries(
      (paths) => queryPaths(run, LSTAT, paths, same),
      async (path) => {
        oneCalls.push(path);
        return 'one';
      },
    );
    expect(await Promise.all([file, link, missing, dangling].map(lstat))).toEqual([
      'regular file|5',
      'symbolic link|4',
      undefined,
      'symbolic link|7',
    ]);
    expect(calls).toEqual([[file, link, missing, dangling]]);
    expect(oneCalls).toEqual([]);
  });
});
