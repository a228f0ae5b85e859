import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newTrailerMarker } from './script-runner.js';
import {
  batchInputs,
  batchInputsUnsaved,
  batchProgram,
  quoteWord,
  splitBatchOutput,
  stepCommand,
  type ScriptStep,
} from './script-steps.js';
import { freshFolders } from '../../../test/helpers/fresh-folders.js';

const LOST = 'the test process ended before this step';

const freshFolder = freshFolders('toolhost-script-steps-');

type Mode = 'archive' | 'inline';

interface Run {
  marker: string;
  result: SpawnSyncReturns<Buffer>;
  /** The TMPDIR the program ran with. */
  tmp: string;
}

/**
 * Runs a batch with this machine's sh as a remote would: `archive` as `sh -c program` with the steps' tar as input,
 * `inline` as a shell reading the program from its input (a helper shell). `TMPDIR` points at a fresh folder, so the
 * folder the inputs are unpacked to is seen.
 */
function runBatch(mode: Mode, steps: readonly ScriptStep[], stderr = '', env: NodeJS.ProcessEnv = {}): Run {
  const marker = newTrailerMarker();
  const program = batchProgram(steps, marker, stderr, mode);
  const tmp = freshFolder();
  const options = { env: { ...process.env, TMPDIR: tmp, ...env } };
  const result =
    mode === 'archive'
      ? spawnSync('/bin/sh', ['-c', program], { ...options, input: batchInputs(steps) })
      : spawnSync('/bin/sh', [], { ...options, input: program });
  return { marker, result, tmp };
}

/** The outcomes of a batch, stdout as latin1 text so binary bytes compare exactly. */
function outcomesOf(mode: Mode, steps: readonly ScriptStep[], stderr = '') {
  const { marker, result } = runBatch(mode, steps, stderr);
  expect(result.status).toBe(0);
  expect(batchInputsUnsaved(result.stdout, marker)).toBe(false);
  return splitBatchOutput(result.stdout, result.stderr.toString('utf8'), marker, steps.length, LOST).map((outcome) => ({
    exitCode: outcome.exitCode,
    stdout: outcome.stdout.toString('latin1'),
    stderr: outcome.stderr,
  }));
}

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('stepCommand', () => {
  it('runs a step without input in a subshell with its arguments, its input /dev/null', () => {
    expect(stepCommand({ script: 'echo "$1"', args: ['a b', "it's"] }, '2>/dev/null')).toBe(
      `(set -- 'a b' 'it'\\''s'\necho "$1"\n) </dev/null 2>/dev/null\n`,
    );
    expect(stepCommand({ script: 'true', args: [] }, '')).toBe('(set -- \ntrue\n) </dev/null \n');
  });

  it('reads a step input from a file when given one', () => {
    expect(stepCommand({ script: 'cat', args: ['x'], input: bytes('data') }, '', '"$dir/0"')).toBe(`(set -- 'x'\ncat\n) <"$dir/0" \n`);
  });

  it('otherwise carries the input as a base64 here-document in lines of 76 characters', () => {
    const input = Buffer.alloc(100, 0xff);
    const text = stepCommand({ script: 'cat', args: [], input }, '2>/dev/null');
    const found = /^\(base64 -d \| \(set -- \ncat\n\)\) 2>\/dev\/null <<'(TOOLHOST_[0-9a-f]{12})'\n([^]*)\1\n$/.exec(text);
    expect(found).not.toBeNull();
    const lines = found![2]!.split('\n');
    expect(lines.map((line) => line.length)).toEqual([76, 60, 0]);
    expect(Buffer.from(lines.join(''), 'base64').equals(input)).toBe(true);
  });

  it('quotes words for sh', () => {
    expect(quoteWord('')).toBe(`''`);
    expect(quoteWord(`a'b`)).toBe(`'a'\\''b'`);
  });
});

describe.each<Mode>(['archive', 'inline'])('batchProgram (%s inputs)', (mode) => {
  it('keeps the steps’ stdout apart and exact: binary bytes, no trailing newline, nothing', () => {
    const steps: ScriptStep[] = [
      { script: `printf 'one\\n'`, args: [] },
      { script: `printf 'no newline'`, args: [] },
      { script: `printf '\\377\\000\\012x\\001'`, args: [] },
      { script: 'true', args: [] },
      { script: `printf 'line 1\\nline 2\\n\\n'`, args: [] },
    ];
    expect(outcomesOf(mode, steps, '2>/dev/null')).toEqual([
      { exitCode: 0, stdout: 'one\n', stderr: '' },
      { exitCode: 0, stdout: 'no newline', stderr: '' },
      { exitCode: 0, stdout: '\xff\x00\nx\x01', stderr: '' },
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 0, stdout: 'line 1\nline 2\n\n', stderr: '' },
    ]);
  });

  it('reports each step’s exit code; a step that exits or fails does not stop or change the next', () => {
    const steps: ScriptStep[] = [
      { script: 'echo before; exit 3; echo never', args: [] },
      { script: 'echo after', args: [] },
      { script: 'false', args: [] },
      { script: 'toolhost-no-such-command', args: [] },
      { script: 'x=changed; cd /; set -e; false; echo never', args: [] },
      { script: 'echo "${x-unset} $(pwd)"', args: [] },
      { script: 'exit 255', args: [] },
      { script: 'exit 5', args: [], input: Buffer.alloc(200_000, 'x') },
      { script: 'cat; exit 6', args: [], input: bytes('read') },
      { script: 'echo last', args: [] },
    ];
    const cwd = process.cwd();
    expect(outcomesOf(mode, steps, '2>/dev/null')).toEqual([
      { exitCode: 3, stdout: 'before\n', stderr: '' },
      { exitCode: 0, stdout: 'after\n', stderr: '' },
      { exitCode: 1, stdout: '', stderr: '' },
      { exitCode: 127, stdout: '', stderr: '' },
      { exitCode: 1, stdout: '', stderr: '' },
      { exitCode: 0, stdout: `unset ${cwd}\n`, stderr: '' },
      { exitCode: 255, stdout: '', stderr: '' },
      { exitCode: 5, stdout: '', stderr: '' },
      { exitCode: 6, stdout: 'read', stderr: '' },
      { exitCode: 0, stdout: 'last\n', stderr: '' },
    ]);
  });

  it('passes arguments with quotes, spaces, newlines and shell syntax intact', () => {
    const args = ["it's", 'a  b', 'line\nbreak\n', '', '"$HOME" `id` $(id) \\ *', '-n', '--'];
    const steps: ScriptStep[] = [
      { script: `printf '[%s]' "$@"; echo " $#"`, args },
      { script: `printf '%s|%s' "$1" "$2"`, args: ['first arg', "sec'ond"] },
      { script: 'echo "$#"', args: [] },
    ];
    expect(outcomesOf(mode, steps, '2>/dev/null')).toEqual([
      { exitCode: 0, stdout: `[it's][a  b][line\nbreak\n][]["$HOME" \`id\` $(id) \\ *][-n][--] 7\n`, stderr: '' },
      { exitCode: 0, stdout: "first arg|sec'ond", stderr: '' },
      { exitCode: 0, stdout: '0\n', stderr: '' },
    ]);
  });

  it('gives each step its own input; a step without input reads nothing', () => {
    const binary = Buffer.alloc(256);
    for (let index = 0; index < 256; index++) binary[index] = 255 - index;
    const large = Buffer.alloc(100_000, 'abc\n');
    const steps: ScriptStep[] = [
      { script: 'cat', args: [], input: bytes('first input') },
      { script: 'cat', args: [] },
      { script: 'cat', args: [], input: binary },
      { script: 'wc -c', args: [], input: new Uint8Array(0) },
      { script: 'cat; echo " $1"', args: ['arg'], input: bytes('no newline') },
      { script: 'cat', args: [] },
      { script: 'wc -c', args: [], input: large },
      { script: 'cat', args: [], input: bytes('last\n') },
    ];
    expect(outcomesOf(mode, steps, '2>/dev/null')).toEqual([
      { exitCode: 0, stdout: 'first input', stderr: '' },
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 0, stdout: binary.toString('latin1'), stderr: '' },
      { exitCode: 0, stdout: '0\n', stderr: '' },
      { exitCode: 0, stdout: 'no newline arg\n', stderr: '' },
      { exitCode: 0, stdout: '', stderr: '' },
      { exitCode: 0, stdout: '100000\n', stderr: '' },
      { exitCode: 0, stdout: 'last\n', stderr: '' },
    ]);
  });

  it('splits stderr per step when it is kept', () => {
    const steps: ScriptStep[] = [
      { script: 'echo out; echo err >&2', args: [] },
      { script: 'echo quiet', args: [] },
      { script: `printf 'no newline' >&2; exit 4`, args: [] },
      { script: `printf 'two\\nlines\\n' >&2; cat`, args: [], input: bytes('in') },
      { script: 'toolhost-no-such-command', args: [] },
    ];
    const outcomes = outcomesOf(mode, steps);
    expect(outcomes.slice(0, 4)).toEqual([
      { exitCode: 0, stdout: 'out\n', stderr: 'err\n' },
      { exitCode: 0, stdout: 'quiet\n', stderr: '' },
      { exitCode: 4, stdout: '', stderr: 'no newline' },
      { exitCode: 0, stdout: 'in', stderr: 'two\nlines\n' },
    ]);
    expect(outcomes[4]!.exitCode).toBe(127);
    expect(outcomes[4]!.stderr).toMatch(/^.*toolhost-no-such-command: not found\n$/);
  });

  it('drops stderr with a redirection: no separators, every step’s stderr empty', () => {
    const steps: ScriptStep[] = [
      { script: 'echo err >&2; echo out', args: [] },
      { script: 'cat >&2', args: [], input: bytes('in') },
    ];
    const { marker, result } = runBatch(mode, steps, '2>/dev/null');
    expect(result.stderr.toString()).toBe('');
    expect(splitBatchOutput(result.stdout, '', marker, 2, LOST).map((outcome) => outcome.stderr)).toEqual(['', '']);
  });

  it('a cut stdout gives exit 255 and the lost message to the steps whose trailer is missing', () => {
    const steps: ScriptStep[] = [
      { script: 'echo zero', args: [] },
      { script: 'echo one; exit 1', args: [] },
      { script: 'echo two', args: [] },
      { script: 'echo three', args: [] },
    ];
    const { marker, result } = runBatch(mode, steps, '2>/dev/null');
    const third = result.stdout.indexOf(`${marker}2:`);
    expect(third).toBeGreaterThan(0);
    const expected = [
      { exitCode: 0, stdout: 'zero\n', stderr: '' },
      { exitCode: 1, stdout: 'one\n', stderr: '' },
      { exitCode: 255, stdout: '', stderr: LOST },
      { exitCode: 255, stdout: '', stderr: LOST },
    ];
    const split = (stdout: Buffer) =>
      splitBatchOutput(stdout, '', marker, 4, LOST).map((outcome) => ({ ...outcome, stdout: outcome.stdout.toString('latin1') }));
    expect(split(result.stdout.subarray(0, third))).toEqual(expected);
    // Cut inside the trailer, before the newline ending its exit code.
    expect(split(result.stdout.subarray(0, third + marker.length + 3))).toEqual(expected);
    expect(split(Buffer.alloc(0))).toEqual(expected.map(() => ({ exitCode: 255, stdout: '', stderr: LOST })));
    expect(split(result.stdout).map((outcome) => outcome.exitCode)).toEqual([0, 1, 0, 0]);
  });
});

describe('batchProgram with archive inputs', () => {
  it('unpacks the inputs to a temporary folder the steps read, removed after the program', () => {
    const steps: ScriptStep[] = [
      { script: 'printf "%s\\n" "$toolhost_batch_inputs"; ls "$toolhost_batch_inputs"', args: [], input: bytes('a') },
      { script: 'cat "$toolhost_batch_inputs/1"', args: [] },
      { script: 'cat', args: [], input: bytes('b') },
    ];
    const { marker, result, tmp } = runBatch('archive', steps, '2>/dev/null');
    const outcomes = splitBatchOutput(result.stdout, '', marker, 3, LOST);
    const [folder, ...listed] = outcomes[0]!.stdout.toString('utf8').split('\n');
    expect(listed).toEqual(['0', '1', '']);
    expect(outcomes.slice(1).map((outcome) => [outcome.exitCode, outcome.stdout.toString('latin1')])).toEqual([
      [0, 'b'],
      [0, 'b'],
    ]);
    expect(folder).toMatch(/^\/.+/);
    expect(existsSync(folder!)).toBe(false);
    expect(folder!.startsWith(`${tmp}/`)).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('removes the folder even when the last step fails', () => {
    const steps: ScriptStep[] = [
      { script: 'cat', args: [], input: bytes('a') },
      { script: 'echo "$toolhost_batch_inputs"; exit 9', args: [] },
    ];
    const { marker, result, tmp } = runBatch('archive', steps, '2>/dev/null');
    const outcomes = splitBatchOutput(result.stdout, '', marker, 2, LOST);
    expect(outcomes[1]!.exitCode).toBe(9);
    expect(existsSync(outcomes[1]!.stdout.toString('utf8').trim())).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('reads no archive when no step has an input', () => {
    const steps: ScriptStep[] = [
      { script: 'echo "[${toolhost_batch_inputs-unset}]"', args: [] },
      { script: 'cat', args: [] },
    ];
    const program = batchProgram(steps, ':m:', '2>/dev/null', 'archive');
    expect(program).not.toContain('tar');
    expect(program).toBe(batchProgram(steps, ':m:', '2>/dev/null', 'inline'));
    expect(outcomesOf('archive', steps, '2>/dev/null')).toEqual([
      { exitCode: 0, stdout: '[unset]\n', stderr: '' },
      { exitCode: 0, stdout: '', stderr: '' },
    ]);
  });

  it('says the inputs were not saved, and runs no step, when mktemp and tar are missing', () => {
    const steps: ScriptStep[] = [
      { script: 'echo ran 0', args: [], input: bytes('a') },
      { script: 'echo ran 1', args: [] },
    ];
    const { marker, result } = runBatch('archive', steps, '', { PATH: freshFolder() });
    expect(result.stdout.toString('latin1')).toBe(`${marker}inputs\n`);
    expect(result.stderr.toString()).toBe('');
    expect(result.status).toBe(0);
    expect(batchInputsUnsaved(result.stdout, marker)).toBe(true);
    expect(batchInputsUnsaved(result.stdout, newTrailerMarker())).toBe(false);
  });

  it('says the inputs were not saved, runs no step and removes its folder, when the input is not a tar', () => {
    const steps: ScriptStep[] = [
      { script: 'echo ran 0', args: [], input: bytes('a') },
      { script: 'echo ran 1', args: [] },
    ];
    const marker = newTrailerMarker();
    const tmp = freshFolder();
    const result = spawnSync('/bin/sh', ['-c', batchProgram(steps, marker, '', 'archive')], {
      env: { ...process.env, TMPDIR: tmp },
      input: Buffer.from('not a tar archive\n'),
    });
    expect(result.stdout.toString('latin1')).toBe(`${marker}inputs\n`);
    expect(result.status).toBe(0);
    expect(batchInputsUnsaved(result.stdout, marker)).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
