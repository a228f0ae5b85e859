import { describe, expect, it } from 'vitest';
import { namedArchive } from './input-archive.js';
import { linkMany, removeMany, writeMany } from './many-file-calls.js';
import { LINK_MANY_SCRIPT, REMOVE_MANY_SCRIPT, WRITE_MANY_SCRIPT } from './many-file-scripts.js';
import type { ScriptOutcome, ScriptRunner } from './script-runner.js';

const LOST = 'the helper ended before this file (the remote may have stopped)';

interface Call {
  script: string;
  args: string[];
  input: Uint8Array | undefined;
}

/** A runner answering with what `reply` makes of the call's marker (its first argument), recording each call. */
function fakeRunner(reply: (marker: string) => { exitCode?: number; stdout: string; stderr?: string }): {
  run: ScriptRunner;
  calls: Call[];
} {
  const calls: Call[] = [];
  const run: ScriptRunner = async (script, args, input) => {
    calls.push({ script, args, input });
    const { exitCode = 0, stdout, stderr = '' } = reply(args[0]!);
    return { exitCode, stdout: Buffer.from(stdout, 'latin1'), stderr };
  };
  return { run, calls };
}

/** Outcomes with stdout as latin1 text, to compare exactly. */
const plain = (outcomes: ScriptOutcome[] | undefined) =>
  outcomes?.map((outcome) => ({ exitCode: outcome.exitCode, stdout: outcome.stdout.toString('latin1'), stderr: outcome.stderr }));

describe('writeMany', () => {
  it('runs WRITE_MANY_SCRIPT once: a fresh marker, every request’s arguments in order, a tar of their temp files in place', async () => {
    const { run, calls } = fakeRunner((m) => ({ stdout: `${m}0:0\n${m}1:0\n` }));
    const data = [Buffer.from('first'), new Uint8Array(0), Buffer.from([0, 255, 10])];
    await writeMany(run, [
      { args: ['/a', '.t0', '', '', ''], data: data[0]! },
      { args: ['/b c', '.t1', '600', '1', ''], data: data[1]! },
      { args: ['/d', '.t2', '', '1', '1'], data: data[2]!, tempFolder: true },
    ]);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.script).toBe(WRITE_MANY_SCRIPT);
    expect(call!.args[0]).toMatch(/^:toolhost-[0-9a-f]{16}:$/);
    expect(call!.args.slice(1)).toEqual([
      ...['/a', '.t0', '', '', '', ''],
      ...['/b c', '.t1', '600', '1', '', ''],
      ...['/d', '.t2', '', '1', '1', '1'],
    ]);
    const archive = namedArchive([
      { path: '.t0', file: data[0]! },
      { path: '.t1', file: data[1]! },
      { path: '.t2/d', file: data[2]! },
    ]);
    expect(Buffer.from(call!.input!).equals(archive!)).toBe(true);
  });

  it('declines targets it cannot unpack in place, running nothing: a relative one, or a temp path too long for a tar header', async () => {
    const { run, calls } = fakeRunner((m) => ({ stdout: `${m}0:0\n${m}1:0\n` }));
    const data = Buffer.from('x');
    expect(
      await writeMany(run, [
        { args: ['relative', '.t0', '', '', ''], data },
        { args: ['/b', '.t1', '', '', ''], data },
      ]),
    ).toBeUndefined();
    const long = `/${'x'.repeat(160)}/${'y'.repeat(101)}`;
    expect(
      await writeMany(run, [
        { args: [long, '.t0', '', '', ''], data },
        { args: ['/b', '.t1', '', '', ''], data },
      ]),
    ).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('gives each file its own exit code and messages, in order', async () => {
    const { run } = fakeRunner((m) => ({
      stdout: `${m}0:0\n${m}1:21\n${m}2:20\n`,
      stderr: `\n${m}0\n\n${m}1\nmkdir: cannot create directory\n\n${m}2\n`,
    }));
    const requests = ['/x', '/y', '/z'].map((path) => ({ args: [path, '.t', '', '', ''], data: Buffer.from('x') }));
    expect(plain(await writeMany(run, requests))).toEqual([
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 21, stdout: '', stderr: '' },
      { exitCode: 20, stdout: '', stderr: 'mkdir: cannot create directory\n' },
    ]);
  });

  it('answers undefined when the helper could not unpack the bytes', async () => {
    const { run } = fakeRunner((m) => ({ stdout: `${m}inputs\n` }));
    expect(await writeMany(run, [{ args: ['/x', '.t', '', '', ''], data: Buffer.from('x') }])).toBeUndefined();
  });

  it('gives the files the helper did not report on exit code 255 and its stderr, else the lost message', async () => {
    const requests = ['/x', '/y', '/z'].map((path) => ({ args: [path, '.t', '', '', ''], data: Buffer.from('x') }));
    const quiet = fakeRunner((m) => ({ exitCode: 255, stdout: `${m}0:0\n` }));
    expect(plain(await writeMany(quiet.run, requests))).toEqual([
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 255, stdout: '', stderr: LOST },
      { exitCode: 255, stdout: '', stderr: LOST },
    ]);
    const said = fakeRunner(() => ({ exitCode: 126, stdout: '', stderr: 'sh: cannot execute\n' }));
    expect(plain(await writeMany(said.run, requests.slice(0, 2)))).toEqual([
      { exitCode: 255, stdout: '', stderr: 'sh: cannot execute\n' },
      { exitCode: 255, stdout: '', stderr: 'sh: cannot execute\n' },
    ]);
  });

  it('uses a new marker for every call', async () => {
    const { run, calls } = fakeRunner((m) => ({ stdout: `${m}0:0\n` }));
    const requests = ['/x', '/y', '/z'].map((path) => ({ args: [path, '.t', '', '', ''], data: Buffer.from('x') }));
    await writeMany(run, requests.slice(0, 1));
    await writeMany(run, requests.slice(0, 1));
    expect(calls[0]!.args[0]).not.toBe(calls[1]!.args[0]);
  });
});

describe('removeMany', () => {
  it('runs REMOVE_MANY_SCRIPT once with the marker and the paths, no input, an outcome each in order', async () => {
    const { run, calls } = fakeRunner((m) => ({ stdout: `${m}0:0\n${m}1:2\n${m}2:21\n`, stderr: `\n${m}0\n\n${m}1\n\n${m}2\n` }));
    const paths = ['/a', '/-b c', '/d\ne'];
    expect(plain(await removeMany(run, paths))).toEqual([
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 2, stdout: '', stderr: '' },
      { exitCode: 21, stdout: '', stderr: '' },
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.script).toBe(REMOVE_MANY_SCRIPT);
    expect(calls[0]!.args.slice(1)).toEqual(paths);
    expect(calls[0]!.input).toBeUndefined();
  });

  it('gives the paths the helper did not report on exit code 255 and the lost message', async () => {
    const { run } = fakeRunner((m) => ({ exitCode: 255, stdout: `${m}0:0\n${m}1:` }));
    expect(plain(await removeMany(run, ['/a', '/b']))).toEqual([
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 255, stdout: '', stderr: LOST },
    ]);
  });
});

describe('linkMany', () => {
  it('runs LINK_MANY_SCRIPT once with the marker and each pair in turn, no input, an outcome each in order', async () => {
    const { run, calls } = fakeRunner((m) => ({ stdout: `${m}0:0\n${m}1:17\n${m}2:2\n` }));
    const pairs = [
      ['/a', '/b'],
      ['/c d', '/-e'],
      ['/f', '/g'],
    ] as const;
    expect((await linkMany(run, pairs)).map((outcome) => outcome.exitCode)).toEqual([0, 17, 2]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.script).toBe(LINK_MANY_SCRIPT);
    expect(calls[0]!.args.slice(1)).toEqual(['/a', '/b', '/c d', '/-e', '/f', '/g']);
    expect(calls[0]!.input).toBeUndefined();
  });

  it('gives the pairs the helper did not report on exit code 255 and its stderr', async () => {
    const { run } = fakeRunner(() => ({ exitCode: 137, stdout: '', stderr: 'Killed' }));
    expect(plain(await linkMany(run, [['/a', '/b']]))).toEqual([{ exitCode: 255, stdout: '', stderr: 'Killed' }]);
  });
});
