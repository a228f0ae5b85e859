/**
 * Long reliability runs (npm run stress): the full hostile-path and malformed-argument corpora, a long TOCTOU race,
 * 2,000 fuzzed patches, 400 SIGKILLs mid-commit on each edit path (80 on each of Docker and SSH), process faults with a
 * 1 GiB print (and 64 MiB through a PTY), and 10,000 mixed calls; prints a summary table and exits non-zero when anything escaped, leaked, lost
 * output or misbehaved. `--scale=0.05` (CI) runs a twentieth of the counts, a 256 MiB print and a 3.2 MiB PTY print.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approximateTokenizer } from '@toolhost/core';
import type { Environment, ToolHost } from 'toolhost';
import { loadHostileCases, runHostileCase, type HostileCase } from './helpers/hostile-corpus.js';
import { runCrashCommits, type CrashSummary } from './helpers/crash-commit.js';
import { createCrashFolder, removeCrashFolder, runRemoteCrashCommits, startCrashContainer } from './helpers/crash-commit-remote.js';
import { ENGINES } from '../environments/engines.js';
import { runNativeEditFuzz } from './helpers/native-edit-fuzz.js';
import { createSharedSandbox, remoteSandboxEngines } from './helpers/remote-engines.js';
import { NATIVE_EDIT_SURFACES, nativeHostileTarget } from './helpers/native-paths.js';
import { formatLoad, runLoad } from './helpers/load.js';
import { buildMalformedArguments, loadMalformedCases, prototypeFingerprint } from './helpers/malformed-corpus.js';
import { runPatchFuzz, type FuzzSummary } from './helpers/patch-fuzz.js';
import { marked, newMarker, startRunning, survivors } from './helpers/process-faults.js';
import { countOpenFds, killMarkedProcesses, settle, settledHeapUsed } from '../helpers/proc-scan.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { resultShapeProblems } from './helpers/result-shape.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';
import { floodOutput } from './helpers/stress-faults.js';
import { runToctouRace } from './helpers/toctou-race.js';

interface Row {
  area: string;
  tried: number;
  correct: number;
  bytesOutside: number;
  processesLeft: number;
  fdsLeaked: number;
  notes: string[];
}

const rows: Row[] = [];
const markers: string[] = [];
const unhandled: unknown[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(reason));
const arg = (name: string, fallback: number) => {
  const found = process.argv.find((value) => value.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const scale = arg('scale', 1);
/** `--seed=N` replays the fuzzers from a seed a failure printed (fast-check picks one at random otherwise). */
const seed = process.argv.some((value) => value.startsWith('--seed=')) ? arg('seed', 0) : undefined;

function log(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Descriptors still open after the last {@link withHost} closed its host. */
let lastLeak = 0;

/** Runs an area on a fresh host, closes it and records how many descriptors stayed open. */
async function withHost<T>(
  sandbox: Sandbox,
  run: (host: ToolHost) => Promise<T>,
  environment?: () => Promise<Environment>,
): Promise<{ value: T }> {
  const fdsBefore = countOpenFds();
  const host = environment ? createReliabilityHost({ environment: await environment() }) : createReliabilityHost(sandbox.workspace);
  try {
    return { value: await run(host) };
  } finally {
    await host.close();
    const after = await settle(countOpenFds, (count) => count <= fdsBefore);
    lastLeak = Math.max(0, after - fdsBefore);
    if (lastLeak) log(`  ${lastLeak} descriptors still open after close()`);
  }
}

/** Runs `cases` of the hostile-path corpus on a fresh host (given by `target` over it) and records one row. */
async function hostileRow(
  area: string,
  sandbox: Sandbox,
  cases: readonly HostileCase[],
  target: (host: ToolHost) => Parameters<typeof runHostileCase>[0],
  environment?: () => Promise<Environment>,
): Promise<void> {
  const sentinel = sandbox.checksumOutside();
  const row = { tried: 0, correct: 0, bytes: 0, notes: [] as string[] };
  await withHost(
    sandbox,
    async (host) => {
      for (const entry of cases) {
        for (const outcome of await runHostileCase(target(host), sandbox, entry, sentinel)) {
          row.tried++;
          row.bytes += outcome.bytesOutside;
          if (outcome.problems.length === 0) row.correct++;
          else row.notes.push(`${entry.id} ${outcome.operation}: ${outcome.problems.join('; ').slice(0, 200)}`);
        }
      }
    },
    environment,
  );
  rows.push({
    area,
    tried: row.tried,
    correct: row.correct,
    bytesOutside: row.bytes,
    processesLeft: 0,
    fdsLeaked: lastLeak,
    notes: row.notes,
  });
}

/** The row of one fuzzing run. */
function fuzzRow(area: string, summary: FuzzSummary): Row {
  return {
    area,
    tried: summary.runs,
    correct: summary.failure || summary.outsideChanged ? summary.runs - 1 : summary.runs,
    bytesOutside: summary.bytesOutside,
    processesLeft: 0,
    fdsLeaked: lastLeak,
    notes: [`${summary.accepted} applied, ${summary.rejected} rejected`, ...(summary.failure ? [summary.failure.slice(0, 400)] : [])],
  };
}

const throughTools = (host: ToolHost) => (name: string, args: unknown) => host.call(name, args);

async function hostileArea(sandbox: Sandbox): Promise<void> {
  const cases = loadHostileCases();
  await hostileRow(`hostile paths (${cases.length} cases)`, sandbox, cases, throughTools);
}

/** The hostile-path corpus through each provider-native edit path (Responses apply_patch_call, Agents editor, Anthropic). */
async function nativeHostileArea(sandbox: Sandbox): Promise<void> {
  const cases = loadHostileCases();
  for (const surface of NATIVE_EDIT_SURFACES)
    await hostileRow(`hostile paths via ${surface}`, sandbox, cases, (host) => nativeHostileTarget(surface, host));
}

/** Fuzzed edits through each provider-native edit path, checked against a reference model. */
async function nativeFuzzArea(sandbox: Sandbox): Promise<void> {
  const runs = Math.max(20, Math.round(1_000 * scale));
  for (const surface of NATIVE_EDIT_SURFACES) {
    const { value: summary } = await withHost(sandbox, (host) => runNativeEditFuzz(host, surface, sandbox, runs, seed));
    rows.push(fuzzRow(`edit fuzzing via ${surface}`, summary));
  }
}

/**
 * Hostile paths (a spread sample of the corpus, all of it at full scale) and fuzzed patches through a Docker container
 * and an SSH host whose workspace is a shared sandbox on this machine, so the same checksums prove nothing outside changed.
 */
async function remoteArea(): Promise<void> {
  const previousUmask = process.umask(0);
  const sandbox = createSharedSandbox('toolhost-stress-remote-');
  // The SSH user must be able to read what a hard link inside the workspace shares with the sentinel tree.
  chmodSync(join(sandbox.outside, 'secret.txt'), 0o644);
  try {
    const cases = loadHostileCases();
    const count = Math.min(cases.length, Math.max(10, Math.round(cases.length * scale)));
    const sample = Array.from({ length: count }, (_, index) => cases[Math.floor((index * cases.length) / count)]!);
    for (const engine of await remoteSandboxEngines(sandbox)) {
      if ('unavailable' in engine) {
        const required = process.env.CI === 'true';
        rows.push({
          area: `remote ${engine.name}: not available`,
          tried: required ? 1 : 0,
          correct: 0,
          bytesOutside: 0,
          processesLeft: 0,
          fdsLeaked: 0,
          notes: [engine.unavailable],
        });
        log(`  ${engine.name} skipped: ${engine.unavailable}`);
        continue;
      }
      try {
        await hostileRow(`hostile paths via ${engine.name} (${sample.length} cases)`, sandbox, sample, throughTools, () =>
          engine.environment(),
        );
        const runs = Math.max(10, Math.round(300 * scale));
        const { value: summary } = await withHost(
          sandbox,
          (host) => runPatchFuzz(throughTools(host), sandbox, runs, seed),
          () => engine.environment(),
        );
        rows.push(fuzzRow(`patch fuzzing via ${engine.name}`, summary));
      } finally {
        await engine.cleanup();
      }
    }
  } finally {
    sandbox.remove();
    process.umask(previousUmask);
  }
}

async function malformedArea(sandbox: Sandbox): Promise<void> {
  const cases = loadMalformedCases();
  const fingerprint = prototypeFingerprint();
  const notes: string[] = [];
  let correct = 0;
  await withHost(sandbox, async (host) => {
    for (const entry of cases) {
      try {
        const result = await host.call(entry.tool, buildMalformedArguments(entry));
        const problems = resultShapeProblems(result);
        if (result.error?.code !== 'invalid_arguments') problems.push(`got ${result.error?.code ?? 'ok'}`);
        const tokens = approximateTokenizer.count(result.output);
        if (tokens > 10_000) problems.push(`error output of ${tokens} tokens exceeds the default max_output_tokens (10000)`);
        if (prototypeFingerprint() !== fingerprint) problems.push('built-in prototypes changed');
        if (problems.length === 0) correct++;
        else notes.push(`${entry.id}: ${problems.join('; ')}`);
      } catch (error) {
        notes.push(`${entry.id}: threw ${String(error)}`);
      }
    }
    const still = await host.call('exec_command', { cmd: 'echo still-working', yield_time_ms: 30_000 });
    if (!still.ok) notes.push('the host stopped working after the corpus');
  });
  rows.push({
    area: 'malformed arguments',
    tried: cases.length,
    correct,
    bytesOutside: sandbox.bytesChangedOutside(),
    processesLeft: 0,
    fdsLeaked: lastLeak,
    notes,
  });
}

async function toctouArea(sandbox: Sandbox): Promise<void> {
  const marker = newMarker('toctou');
  markers.push(marker);
  const attempts = 5_000 * scale;
  const { value: race } = await withHost(sandbox, (host) =>
    runToctouRace((name, args) => host.call(name, args), sandbox, attempts, marker),
  );
  const notes = [`${race.swaps} swaps; results ${JSON.stringify(race.codes)}`];
  if (race.bytesOutside)
    notes.push(`outside after the race: ${race.listingAfter.filter((line) => !race.listingBefore.includes(line)).join(', ')}`);
  notes.push(...race.internalErrors.slice(0, 3));
  const bad = race.shapeProblems.length + race.internalErrors.length;
  rows.push({
    area: 'TOCTOU symlink swap',
    tried: attempts,
    correct: race.bytesOutside ? 0 : attempts - bad,
    bytesOutside: race.bytesOutside,
    processesLeft: survivors([marker]).length,
    fdsLeaked: lastLeak,
    notes,
  });
}

async function fuzzArea(sandbox: Sandbox): Promise<void> {
  const runs = 2_000 * scale;
  const { value: summary } = await withHost(sandbox, (host) => runPatchFuzz(throughTools(host), sandbox, runs, seed));
  rows.push(fuzzRow('patch fuzzing', summary));
}

/** The row of one crash run: a kill is handled when it left no mixed state, no leftover and no problem. */
function crashRow(area: string, summary: CrashSummary): Row {
  return {
    area,
    tried: summary.kills,
    correct: summary.kills - summary.mixed - summary.leftovers - summary.problems.length,
    bytesOutside: 0,
    processesLeft: 0,
    fdsLeaked: 0,
    notes: [
      `${summary.completed} completed, ${summary.rolledBack} rolled back, ${summary.clean} outside a commit; ${summary.mixed} mixed`,
      ...summary.problems.slice(0, 3),
    ],
  };
}

/**
 * Processes killed with SIGKILL in the middle of a 24-file edit (apply_patch and the native edit path, and apply_patch
 * on a workspace that flushes nothing), and hosts on a Docker container and an SSH host killed the same way.
 */
async function crashArea(): Promise<void> {
  for (const surface of ['apply_patch', 'edit'] as const) {
    const kills = Math.max(10, Math.round(400 * scale));
    const summary = await runCrashCommits({ kills, surface, ahead: 3 });
    rows.push(crashRow(`SIGKILL mid-commit via ${surface}`, summary));
  }
  const unflushed = await runCrashCommits({
    kills: Math.max(10, Math.round(200 * scale)),
    surface: 'apply_patch',
    ahead: 3,
    durability: 'process',
  });
  rows.push(crashRow('SIGKILL mid-commit, no flushes (durability process)', unflushed));
  for (const engine of ENGINES.filter((candidate) => candidate.name === 'docker' || candidate.name === 'ssh')) {
    const missing = await engine.unavailable();
    if (missing !== undefined) {
      // The remote area reports a missing engine (and fails the run in CI).
      log(`  SIGKILL mid-commit on ${engine.name} skipped: ${missing}`);
      continue;
    }
    const kills = Math.max(4, Math.round(80 * scale));
    const root = createCrashFolder();
    const container = engine.name === 'docker' ? await startCrashContainer(root) : undefined;
    try {
      const summary = await runRemoteCrashCommits({ engine: engine.name as 'docker' | 'ssh', root, container: container?.id }, { kills });
      rows.push(crashRow(`SIGKILL mid-commit on ${engine.name} via apply_patch`, summary));
    } finally {
      await container?.remove();
      removeCrashFolder(root);
    }
  }
}

async function processArea(sandbox: Sandbox): Promise<void> {
  const notes: string[] = [];
  let tried = 0;
  let correct = 0;
  const heapStart = settledHeapUsed();
  const local: string[] = [];
  const mark = (label: string) => {
    const marker = newMarker(label);
    markers.push(marker);
    local.push(marker);
    return marker;
  };
  await withHost(sandbox, async (host) => {
    // 1 GiB at full scale; never under 256 MiB, twice the heap growth allowed, so output held in memory shows.
    for (const [tty, bytes] of [
      [false, Math.round(Math.min(1, Math.max(0.25, scale)) * 1024 ** 3)],
      [true, Math.round(Math.max(0.05, scale) * 64 * 2 ** 20)],
    ] as const) {
      tried++;
      const flood = await floodOutput(host, mark(tty ? 'pty-flood' : 'flood'), bytes, { tty });
      notes.push(
        `${(bytes / 2 ** 20).toFixed(0)} MiB print${tty ? ' in a PTY' : ''}: ${flood.calls} calls, exit ${flood.exitCode}, ${flood.spooledBytes} bytes spooled, max ${flood.maxOutputTokens} tokens shown, heap growth ${(flood.heapGrowthBytes / 2 ** 20).toFixed(1)} MiB, RSS peak ${(flood.rssPeakBytes / 2 ** 20).toFixed(0)} MiB`,
      );
      if (flood.problems.length === 0 && flood.exitCode === 0 && flood.heapGrowthBytes < 128 * 2 ** 20) correct++;
      else notes.push(...flood.problems.slice(0, 3));
    }
    tried++;
    const term = mark('sigterm');
    const ignoring = `trap '' TERM HUP INT; (trap '' TERM HUP; sleep 1000) & (trap '' TERM HUP; sleep 1000) & sleep 1000 & wait`;
    const earlier = [await startRunning(host, marked(term, ignoring)), await startRunning(host, marked(term, ignoring), { tty: true })].map(
      (started) => started.sessionId,
    );
    correct++;
    tried++;
    // The two SIGTERM-ignoring sessions still run on this host: 2 + 100 sessions for 64 places. They are the least
    // recently used, so they go first, then the oldest of the hundred.
    const base = mark('hundred');
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        host.call('exec_command', { cmd: marked(`${base}-s${index}-end`, 'sleep 1000 & wait'), yield_time_ms: 250 }),
      ),
    );
    const prunedIds = results.flatMap((result) =>
      [...result.output.matchAll(/session (\d+) \(.*?\) was pruned/g)].map((match) => Number(match[1])),
    );
    const expected = earlier.length + 100 - 64;
    const earlierPruned = earlier.filter((id) => prunedIds.includes(id)).length;
    notes.push(
      `100 concurrent sessions after ${earlier.length} running: ${prunedIds.length} pruning notes (expected ${expected}), ${earlierPruned} of the ${earlier.length} earlier sessions among them`,
    );
    if (prunedIds.length === expected && earlierPruned === earlier.length && results.every((result) => result.ok)) correct++;
  });
  const left = survivors(local);
  const heapEnd = settledHeapUsed();
  notes.push(`heap ${(heapStart / 2 ** 20).toFixed(1)} -> ${(heapEnd / 2 ** 20).toFixed(1)} MiB after close()`);
  rows.push({
    area: 'process faults',
    tried,
    correct,
    bytesOutside: sandbox.bytesChangedOutside(),
    processesLeft: left.length,
    fdsLeaked: lastLeak,
    notes,
  });
}

async function loadArea(sandbox: Sandbox): Promise<void> {
  const calls = 10_000 * scale;
  const { value: summary } = await withHost(sandbox, (host) => runLoad((name, args) => host.call(name, args), calls, 16));
  log(formatLoad(summary));
  const okCalls = Object.values(summary.codes).reduce((sum, codes) => sum + (codes.ok ?? 0), 0);
  rows.push({
    area: 'load (16 in flight)',
    tried: calls,
    correct: okCalls - summary.problems.length,
    bytesOutside: sandbox.bytesChangedOutside(),
    processesLeft: 0,
    fdsLeaked: lastLeak,
    notes: [
      `p50 ${summary.overall.p50.toFixed(1)} ms, p99 ${summary.overall.p99.toFixed(1)} ms, ${(summary.calls / (summary.wallMs / 1000)).toFixed(0)} calls/s`,
      ...summary.problems.slice(0, 3),
    ],
  });
}

function printTable(): boolean {
  const header = ['area', 'cases tried', 'handled correctly', 'bytes changed outside', 'processes left', 'fds leaked'];
  const body = rows.map((row) => [
    row.area,
    String(row.tried),
    String(row.correct),
    String(row.bytesOutside),
    String(row.processesLeft),
    String(row.fdsLeaked),
  ]);
  const total = ['total', ...[1, 2, 3, 4, 5].map((column) => String(body.reduce((sum, row) => sum + Number(row[column]), 0)))];
  const table = [header, ...body, total];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  log('');
  for (const [index, row] of table.entries()) {
    log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
    if (index === 0 || index === table.length - 2) log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
  log('');
  for (const row of rows) for (const note of row.notes.slice(0, 12)) log(`${row.area}: ${note}`);
  if (unhandled.length) log(`unhandled rejections: ${unhandled.map(String).join('; ')}`);
  return (
    rows.every((row) => row.correct === row.tried && row.bytesOutside === 0 && row.processesLeft === 0 && row.fdsLeaked === 0) &&
    unhandled.length === 0
  );
}

async function main(): Promise<void> {
  const sandbox = createSandbox('toolhost-stress-');
  const savedHome = process.env.HOME;
  const savedStateHome = process.env.XDG_STATE_HOME;
  process.env.HOME = sandbox.home;
  // toolhost's own state folder (the journal of multi-file commits) is a write of toolhost's, outside the checksummed tree.
  const stateHome = mkdtempSync(join(tmpdir(), 'toolhost-stress-state-'));
  process.env.XDG_STATE_HOME = stateHome;
  const only = process.argv
    .find((value) => value.startsWith('--only='))
    ?.split('=')[1]
    ?.split(',');
  const areas: [string, (sandbox: Sandbox) => Promise<void>][] = [
    ['hostile', hostileArea],
    ['native-hostile', nativeHostileArea],
    ['native-fuzz', nativeFuzzArea],
    ['remote', remoteArea],
    ['malformed', malformedArea],
    ['toctou', toctouArea],
    ['fuzz', fuzzArea],
    ['crash', crashArea],
    ['process', processArea],
    ['load', loadArea],
  ];
  const started = performance.now();
  // Warm-up: load every module (PTY backend, grammars) once so descriptor counts compare steady states.
  await withHost(sandbox, async (host) => {
    await host.call('exec_command', { cmd: 'true', yield_time_ms: 10_000 });
    await host.call('exec_command', { cmd: 'true', tty: true, yield_time_ms: 10_000 });
    await host.call('code_search', { query: 'hello' });
  });
  try {
    for (const [name, run] of areas) {
      if (only && !only.includes(name)) continue;
      const begin = performance.now();
      log(`== ${name}`);
      await run(sandbox);
      log(`   ${((performance.now() - begin) / 1000).toFixed(1)} s`);
    }
  } finally {
    for (const marker of markers) killMarkedProcesses(marker);
    process.env.HOME = savedHome;
    if (savedStateHome === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = savedStateHome;
    rmSync(stateHome, { recursive: true, force: true });
    sandbox.remove();
  }
  log(`stress finished in ${((performance.now() - started) / 1000).toFixed(0)} s (run id ${randomUUID().slice(0, 8)})`);
  const passed = printTable();
  process.exitCode = passed ? 0 : 1;
}

await main();
