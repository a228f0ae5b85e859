import { describe, expect, it } from 'vitest';
import { coalescingScriptRunner } from './script-coalescer.js';
import type { ScriptOutcome, ScriptRunner } from './script-runner.js';
import type { ScriptBatchRunner, ScriptStep } from './script-steps.js';

const MIB = 1024 * 1024;

/** The outcome the fakes give a script: which runner ran it, and the script, so each request's own is recognised. */
function outcome(runner: 'run' | 'batch', script: string): ScriptOutcome {
  return { exitCode: 0, stdout: Buffer.from(`${runner}:${script}`), stderr: '' };
}

/** Fake runners recording their calls; `failBatch` picks the batches that reject. */
function fakes(failBatch: (steps: readonly ScriptStep[]) => Error | undefined = () => undefined) {
  const runs: Array<{ script: string; args: string[]; input?: Uint8Array }> = [];
  const batches: ScriptStep[][] = [];
  const run: ScriptRunner = async (script, args, input) => {
    runs.push({ script, args, ...(input === undefined ? {} : { input }) });
    return outcome('run', script);
  };
  const runBatch: ScriptBatchRunner = async (steps) => {
    batches.push([...steps]);
    const error = failBatch(steps);
    if (error) throw error;
    return steps.map((step) => outcome('batch', step.script));
  };
  return { runs, batches, runner: coalescingScriptRunner(run, runBatch) };
}

const scripts = (steps: readonly ScriptStep[]) => steps.map((step) => step.script);
const text = (outcomes: readonly ScriptOutcome[]) => outcomes.map((each) => each.stdout.toString());
const names = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `s${from + index}`);

describe('coalescingScriptRunner', () => {
  it('runs a request made alone with run, passing its arguments and input', async () => {
    const { runs, batches, runner } = fakes();
    const input = Buffer.from('data');
    expect(text([await runner('alone', ['a', 'b'], input)])).toEqual(['run:alone']);
    expect(text([await runner('no input', [])])).toEqual(['run:no input']);
    expect(runs).toEqual([
      { script: 'alone', args: ['a', 'b'], input },
      { script: 'no input', args: [] },
    ]);
    expect(runs[1]).not.toHaveProperty('input');
    expect(batches).toEqual([]);
  });

  it('sends 10 requests of one turn to runBatch as 2 lanes of 5, in order, each resolving with its own outcome', async () => {
    const { runs, batches, runner } = fakes();
    const input = Buffer.from('in 3');
    const results = await Promise.all(names(10).map((name, index) => runner(name, [`arg ${index}`], index === 3 ? input : undefined)));
    expect(text(results)).toEqual(names(10).map((name) => `batch:${name}`));
    expect(runs).toEqual([]);
    expect(batches.map(scripts)).toEqual([names(5), names(5, 5)]);
    expect(batches[0]![3]).toEqual({ script: 's3', args: ['arg 3'], input });
    expect(batches[0]![2]).toEqual({ script: 's2', args: ['arg 2'] });
    expect(batches[0]![2]).not.toHaveProperty('input');
  });

  it('opens a second lane from 5 requests, each lane holding at least 4 steps before another opens', async () => {
    const lanes: number[][] = [];
    for (const count of [2, 3, 4, 5, 7, 8, 9, 64]) {
      const { batches, runner } = fakes();
      await Promise.all(names(count).map((name) => runner(name, [])));
      lanes.push(batches.map((batch) => batch.length));
    }
    expect(lanes).toEqual([[2], [3], [4], [3, 2], [4, 3], [4, 4], [5, 4], [32, 32]]);
  });

  it('keeps requests made in different turns apart, and gathers those made across a microtask', async () => {
    const { runs, batches, runner } = fakes();
    const first = await runner('first', []);
    const second = await runner('second', []);
    expect(text([first, second])).toEqual(['run:first', 'run:second']);
    const pair = runner('a', []);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const later = runner('b', []);
    expect(text(await Promise.all([pair, later]))).toEqual(['run:a', 'run:b']);
    // Awaiting a resolved promise stays in the same turn: both go in one batch.
    const one = runner('c', []);
    await Promise.resolve();
    const two = runner('d', []);
    expect(text(await Promise.all([one, two]))).toEqual(['batch:c', 'batch:d']);
    expect(runs.map((call) => call.script)).toEqual(['first', 'second', 'a', 'b']);
    expect(batches.map(scripts)).toEqual([['c', 'd']]);
  });

  it('rejects every request of a batch that runBatch rejects, and only those', async () => {
    const failure = new Error('lost the remote');
    const { batches, runner } = fakes((steps) => (steps[0]!.script === 's0' ? failure : undefined));
    const settled = await Promise.allSettled(names(10).map((name) => runner(name, [])));
    expect(batches.map(scripts)).toEqual([names(5), names(5, 5)]);
    expect(settled.map((each) => (each.status === 'rejected' ? (each.reason as Error) : each.value.stdout.toString()))).toEqual([
      failure,
      failure,
      failure,
      failure,
      failure,
      'batch:s5',
      'batch:s6',
      'batch:s7',
      'batch:s8',
      'batch:s9',
    ]);
  });

  it('rejects a request run alone when run rejects', async () => {
    const failure = new Error('no process');
    const runner = coalescingScriptRunner(
      () => Promise.reject(failure),
      () => Promise.reject(new Error('not a batch')),
    );
    await expect(runner('alone', [])).rejects.toBe(failure);
  });

  it('cuts more than 64 steps into more batches, each spread over two lanes, and runs a last lone step alone', async () => {
    const { runs, batches, runner } = fakes();
    const results = await Promise.all(names(130).map((name) => runner(name, [])));
    expect(text(results)).toEqual(names(130).map((name) => `batch:${name}`));
    expect(batches.map(scripts)).toEqual([names(32), names(32, 32), names(32, 64), names(32, 96), names(2, 128)]);
    expect(runs).toEqual([]);
    const { runs: lone, batches: cut, runner: next } = fakes();
    const last = await Promise.all(names(65).map((name) => next(name, [])));
    expect(cut.map(scripts)).toEqual([names(32), names(32, 32)]);
    expect(lone.map((call) => call.script)).toEqual(['s64']);
    expect(text(last.slice(63))).toEqual(['batch:s63', 'run:s64']);
  });

  it('cuts a batch before the step whose input would take it over 16 MiB', async () => {
    const { runs, batches, runner } = fakes();
    const sizes = [6 * MIB, 6 * MIB, 4 * MIB, 1, 15 * MIB, 1 * MIB, 1];
    await Promise.all(sizes.map((size, index) => runner(`s${index}`, [], new Uint8Array(size))));
    // 6 + 6 + 4 MiB is exactly 16 MiB; the next byte opens another batch, which 1 + 15 MiB + 1 MiB overflows.
    expect(batches.map(scripts)).toEqual([
      ['s0', 's1', 's2'],
      ['s3', 's4'],
      ['s5', 's6'],
    ]);
    expect(batches.map((batch) => batch.map((step) => step.input?.byteLength))).toEqual([
      [6 * MIB, 6 * MIB, 4 * MIB],
      [1, 15 * MIB],
      [MIB, 1],
    ]);
    expect(runs).toEqual([]);
  });

  it('runs alone a step whose input alone is over 16 MiB, the steps around it in batches of their own', async () => {
    const { runs, batches, runner } = fakes();
    await Promise.all([
      runner('before', [], new Uint8Array(1)),
      runner('huge', [], new Uint8Array(16 * MIB + 1)),
      runner('after', []),
      runner('after 2', []),
    ]);
    expect(batches.map(scripts)).toEqual([['after', 'after 2']]);
    expect(runs.map((call) => [call.script, call.input?.byteLength])).toEqual([
      ['before', 1],
      ['huge', 16 * MIB + 1],
    ]);
  });
});
