// apply_patch on large files in a Docker container and on an SSH host: the 24 files of 256 KiB with one line changed
// in each (one patch) of patch-large, against a local `git apply` of the same change as a unified diff plus one round
// trip to that environment (toolhost `exec_command true` there), all measured in the same run; the goal is a ratio <= 2.
// Each environment is measured as made by default (edits flushed on the remote) and with `durability: 'process'`
// (no flush, as git apply).
// Also counts the workspace calls one apply_patch makes and the time spent in each kind (summed, so concurrent calls
// add up), as each is at least one round trip on a remote.
// Needs the engines of test/environments (eval "$(bash test/environments/setup-ci.sh)"). Run: npm run bench -- patch-large-remote
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { approximateTokenizer, type Environment } from '@toolhost/core';
import { createToolHost, type ToolHost } from 'toolhost';
import { startBenchEngine } from './bench-engines.js';
import { applyPatchText, changed, codeFile, git, writeAll } from './large-file-changes.js';
import { median, timed } from './timing.js';

const WARMUP = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const EXEC_ROUNDS = 15;
const LINE = 1500;

interface Calls {
  count: number;
  ms: number;
}

/** Wraps an object so every method call on it (and on the objects it holds) is counted and timed under its dotted name. */
function counting<T extends object>(target: T, counts: Map<string, Calls>, prefix: string, active: () => boolean): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      const name = `${prefix}${String(key)}`;
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          const started = performance.now();
          const result = (value as (...rest: unknown[]) => unknown).apply(object, args);
          if (!active()) return result;
          const done = () => {
            const calls = counts.get(name) ?? { count: 0, ms: 0 };
            counts.set(name, { count: calls.count + 1, ms: calls.ms + performance.now() - started });
          };
          if (result instanceof Promise) return result.finally(done);
          done();
          return result;
        };
      }
      if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) return counting(value, counts, `${name}.`, active);
      return value;
    },
  });
}

/** Local `git apply` of the change, median over the rounds, reset between rounds. */
function gitApplyMedian(base: string, files: Map<string, string>, expected: Map<string, string>): number {
  const repo = join(base, 'git');
  mkdirSync(repo);
  git(repo, 'init', '-q');
  git(repo, 'config', 'user.email', 'bench@example.invalid');
  git(repo, 'config', 'user.name', 'bench');
  writeAll(repo, files);
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'original');
  writeAll(repo, expected);
  const diffPath = join(base, 'change.diff');
  writeFileSync(diffPath, git(repo, 'diff', '--unified=3'));
  const samples: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    writeAll(repo, files);
    const start = performance.now();
    git(repo, 'apply', diffPath);
    if (round >= WARMUP) samples.push(performance.now() - start);
    for (const [name, text] of expected) {
      if (readFileSync(join(repo, name), 'utf8') !== text) throw new Error(`git apply produced an unexpected ${name}`);
    }
  }
  return median(samples);
}

interface Measured {
  roundTrip: number;
  ours: number;
  calls: Map<string, Calls>;
}

/** `exec_command true` and apply_patch of the change through toolhost on `environment`, files reset between rounds. */
async function measure(environment: Environment, files: Map<string, string>, expected: Map<string, string>): Promise<Measured> {
  const calls = new Map<string, Calls>();
  let counted = false;
  const counts = new Map<string, Calls>();
  const watched = new Proxy(environment, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (key === 'workspace') return counting(value as object, counts, 'workspace.', () => counted);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
  const tools: ToolHost = createToolHost({
    environment: watched,
    shellProfile: 'unix_like',
    tokenizer: approximateTokenizer,
    verification: { threshold: Infinity },
  });
  try {
    const roundTrip = median(
      await timed(EXEC_ROUNDS, 3, async () => {
        const result = await tools.call('exec_command', { cmd: 'true' });
        if (!result.ok || !result.output.includes('exited with code 0')) throw new Error(result.output);
      }),
    );
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const patch = applyPatchText(files, LINE);
    const samples: number[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const [name, text] of files) await environment.workspace.writeFile(name, encoder.encode(text));
      counts.clear();
      counted = round === WARMUP;
      const start = performance.now();
      const result = await tools.call('apply_patch', { input: patch });
      const elapsed = performance.now() - start;
      if (counted) for (const [name, count] of counts) calls.set(name, count);
      counted = false;
      if (!result.ok) throw new Error(`apply_patch failed: ${result.output.slice(0, 500)}`);
      for (const [name, text] of expected) {
        if (decoder.decode(await environment.workspace.readFile(name)) !== text)
          throw new Error(`apply_patch produced an unexpected ${name}`);
      }
      if (round >= WARMUP) samples.push(elapsed);
    }
    return { roundTrip, ours: median(samples), calls };
  } finally {
    await tools.close();
  }
}

function report(name: string, gitApply: number, measured: Measured): void {
  const baseline = gitApply + measured.roundTrip;
  console.log(
    `| ${name.padEnd(16)} | ${gitApply.toFixed(1).padStart(9)} | ${measured.roundTrip.toFixed(1).padStart(13)} | ${measured.ours.toFixed(1).padStart(9)} | ${(measured.ours / baseline).toFixed(2).padStart(5)} |`,
  );
}

function callSummary(measured: Measured): string {
  const total = [...measured.calls.values()].reduce((sum, calls) => sum + calls.count, 0);
  const each = [...measured.calls]
    .map(([name, calls]) => `${name.replace('workspace.', '')} ${calls.count}x ${calls.ms.toFixed(0)} ms`)
    .join(', ');
  return `${total} workspace calls (${each})`;
}

async function dockerRow(gitApply: number, files: Map<string, string>, expected: Map<string, string>): Promise<string> {
  const started = await startBenchEngine('docker');
  if (typeof started === 'string') return `Docker SKIPPED: ${started}`;
  try {
    const container = started.prepared.docker!.container.id;
    const cli = median(
      await timed(EXEC_ROUNDS, 3, () => {
        const result = spawnSync('docker', ['exec', container, 'true']);
        if (result.status !== 0) throw new Error(`docker exec failed: ${result.stderr.toString()}`);
      }),
    );
    const measured = await measure(started.environment, files, expected);
    report('Docker', gitApply, measured);
    const unflushed = await measure(await started.prepared.environment('process'), files, expected);
    report('Docker, no flush', gitApply, unflushed);
    return `Docker: ${callSummary(measured)}; the docker exec CLI round trip is ${cli.toFixed(1)} ms`;
  } finally {
    await started.remove();
  }
}

async function sshRow(gitApply: number, files: Map<string, string>, expected: Map<string, string>): Promise<string> {
  const started = await startBenchEngine('ssh');
  if (typeof started === 'string') return `SSH SKIPPED: ${started}`;
  try {
    const measured = await measure(started.environment, files, expected);
    report('SSH', gitApply, measured);
    const unflushed = await measure(await started.prepared.environment('process'), files, expected);
    report('SSH, no flush', gitApply, unflushed);
    return `SSH: ${callSummary(measured)}`;
  } finally {
    await started.remove();
  }
}

export default async function run(): Promise<void> {
  const files = new Map<string, string>();
  for (let index = 0; index < 24; index++) files.set(`file${String(index).padStart(2, '0')}.ts`, codeFile(`f${index}`, 256 * 1024));
  const expected = new Map([...files].map(([name, text]) => [name, changed(text, LINE)]));
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-patch-large-remote-'));
  try {
    const gitApply = gitApplyMedian(base, files, expected);
    console.log(`24 x 256 KiB, 1 line each; median of ${ROUNDS} rounds after ${WARMUP} warm-up (round trip: ${EXEC_ROUNDS} rounds)`);
    console.log('ratio = ours / (local git apply + one round trip); goal <= 2');
    console.log('| where            | git ms    | round trip ms | ours ms   | ratio |');
    console.log('|------------------|-----------|---------------|-----------|-------|');
    const notes = [await dockerRow(gitApply, files, expected), await sshRow(gitApply, files, expected)];
    for (const note of notes) console.log(note);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
