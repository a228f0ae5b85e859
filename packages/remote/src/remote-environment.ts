import type { Environment, EnvironmentProcesses, Executor, MarkerMatch, Workspace, WorkspaceDurability } from '@toolhost/core';
import { HelperShellPool } from './helper-shell.js';
import { createRemoteExecutor } from './remote-process.js';
import { createRemoteJournalStore, newHelperOwner } from './remote-journal-store.js';
import { HELPER_VARIABLE, remoteFindScript, remoteKillScript } from './remote-scripts.js';
import type { RemoteTransport } from './remote-transport.js';
import { runArchiveBatch, runRemoteBatch, runRemoteScript, runRemoteScriptReported, type ScriptRunner } from './script-runner.js';
import type { ScriptBatchRunner } from './script-steps.js';
import { createScriptWorkspace } from './script-workspace.js';

/** Options of {@link createRemoteEnvironment}. */
export interface RemoteEnvironmentOptions {
  /** Absolute path of the workspace on the remote. */
  root: string;
  /** Create the root folder when it is missing (a remote toolhost made itself). */
  createRoot?: boolean;
  /**
   * Long-lived helper shells for file operations and process scans (default 0: one process a helper script). Those of
   * one patch run on them in parallel, each request one round trip.
   */
  helperShells?: number;
  /** What a multi-file edit survives (default `'disk'`: its files, journal and folders are flushed on the remote). */
  durability?: WorkspaceDurability;
}

/** What the first script learnt of the remote. */
interface RemoteProbe {
  realRoot: string;
  bash: string;
  pwsh: string;
  ripgrep: boolean;
}

/**
 * Times the first probe is started when the engine loses it before it reports (an exec an engine under load failed to
 * start): the probe changes nothing twice, so it is simply started again.
 */
const PROBE_ATTEMPTS = 3;

async function probeRemote(transport: RemoteTransport, options: RemoteEnvironmentOptions): Promise<RemoteProbe> {
  const mkdir = options.createRoot ? 'mkdir -p -- "$1" || exit 1\n' : '';
  const script = `${mkdir}[ -d "$1" ] || exit 2\nreadlink -f -- "$1"\ncommand -v bash || echo\ncommand -v pwsh || echo\ncommand -v rg || echo`;
  let run = await runRemoteScriptReported(transport, script, [options.root]);
  for (let attempt = 1; !run.reported && attempt < PROBE_ATTEMPTS; attempt++)
    run = await runRemoteScriptReported(transport, script, [options.root]);
  const probe = run.outcome;
  if (probe.exitCode !== 0)
    throw new Error(
      probe.exitCode === 2 ? `${options.root} is not a folder ${transport.place}` : probe.stderr.trim() || `exit code ${probe.exitCode}`,
    );
  const [realRoot = options.root, bash = '', pwsh = '', ripgrep = ''] = probe.stdout.toString('utf8').split('\n');
  return { realRoot, bash, pwsh, ripgrep: ripgrep !== '' };
}

function remoteProcesses(transport: RemoteTransport, probe: RemoteProbe, run: ScriptRunner): EnvironmentProcesses {
  const kill = async (match: MarkerMatch) => {
    // A process of its own, so a kill never waits behind file operations (and works while every helper shell is busy).
    await runRemoteScript(transport, remoteKillScript(match), []).catch(() => undefined);
  };
  const executors: Record<'pipe' | 'pty', Executor> = {
    pipe: createRemoteExecutor(transport, 'pipe', kill),
    pty: createRemoteExecutor(transport, 'pty', kill),
  };
  return {
    baseEnvironment: () => ({}),
    executor: (kind) => executors[kind],
    shell(kind, cmd) {
      if (kind === 'powershell') {
        if (!probe.pwsh)
          return {
            ok: false,
            message: `PowerShell (pwsh) is not installed ${transport.place}, so the command could not start. Use the unix_like shell profile.`,
          };
        return { ok: true, file: probe.pwsh, args: ['-NoProfile', '-Command', cmd] };
      }
      return { ok: true, file: probe.bash || '/bin/sh', args: ['-c', cmd] };
    },
    async hasProcesses(_child, marker) {
      // A script answers in one round trip; the transport's own view of processes when none can.
      const outcome = await run(remoteFindScript({ exact: marker }), []).catch(() => undefined);
      if (outcome && (outcome.exitCode === 0 || outcome.exitCode === 1)) return outcome.exitCode === 0;
      return (await transport.findMarked?.(marker)) ?? false;
    },
    killMarked: kill,
    // The probe read the remote's own PATH; a PATH the commands are given replaces it.
    findsRipgrep: (env) => probe.ripgrep && env.PATH === undefined,
  };
}

/**
 * A whole environment on a remote reached through `transport`: files through POSIX sh helpers (or the transport's own
 * file channel) with a journal store on the remote for crash-safe multi-file commits, commands through `REMOTE_START_SCRIPT` with their exit sentinel, process scans and kills by marker.
 * Rejects with a plain Error when the remote cannot serve (no such root, no `/bin/sh`); the transport stays open then.
 * close() ends the helper shells, then closes the transport.
 */
export async function createRemoteEnvironment(transport: RemoteTransport, options: RemoteEnvironmentOptions): Promise<Environment> {
  const probe = await probeRemote(transport, options);
  const runOnce: ScriptRunner = (script, args, input) => runRemoteScript(transport, script, args, input);
  const shells = Math.max(0, Math.floor(options.helperShells ?? 0));
  // Every helper process carries this host's tag, so a host opening the workspace after this one died can end them.
  const owner = newHelperOwner();
  const startShell = () =>
    transport.start({ role: 'shell', script: `export ${HELPER_VARIABLE}="$1"\nexec /bin/sh`, args: [owner], env: {}, killed: () => false });
  const helpers = shells > 0 ? new HelperShellPool(startShell, shells, transport.lostHint) : undefined;
  // Requests with raw input (a patch's writes and links, its journal) hold their shell while the bytes travel and are
  // unpacked: they get a shell of their own, so the short queries of commands and patches never wait behind them.
  const inputShell = shells > 0 ? new HelperShellPool(startShell, 1, transport.lostHint) : undefined;
  const run: ScriptRunner = helpers ? (script, args, input) => helpers.run(script, args, input) : runOnce;
  // A batch without input is one request of a helper shell. One that writes needs its inputs raw (a shell parses a
  // here-document a byte at a time): a helper shell takes them after its request where `dd` reads exactly,
  // else the batch is a process of its own, tagged and acting as the helpers do.
  const batchOptions = helpers
    ? { role: 'shell' as const, prelude: `export ${HELPER_VARIABLE}="$1"`, args: [owner], fallback: run }
    : { fallback: run };
  const raw = async () => (inputShell !== undefined && (await inputShell.takesRawInput()) ? inputShell : undefined);
  const runBatch: ScriptBatchRunner = async (steps) => {
    if (helpers && steps.every((step) => step.input === undefined)) return helpers.runBatch(steps);
    const shells = await raw();
    if (!shells) return runRemoteBatch(transport, steps, batchOptions);
    const lost = `the helper shell did not finish the request (${transport.lostHint})`;
    return runArchiveBatch(async (program, inputs) => ({ outcome: await shells.runRaw(program, [], inputs), lost }), steps, run);
  };
  const runProcess: ScriptRunner = helpers
    ? async (script, args, input) => {
        const shells = await raw();
        if (shells) return shells.runRaw(script, args, input ?? new Uint8Array());
        const prelude = `export ${HELPER_VARIABLE}="$1"; shift\n`;
        return (await runRemoteScriptReported(transport, `${prelude}${script}`, [owner, ...args], input, 'shell')).outcome;
      }
    : runOnce;
  const flush = (options.durability ?? 'disk') === 'disk';
  const files = (root: string, realRoot: string) =>
    transport.workspace?.(root, realRoot, runOnce, { flush }) ??
    createScriptWorkspace(root, realRoot, run, { runBatch, runProcess, flush });
  const commitJournal = createRemoteJournalStore({
    realRoot: probe.realRoot,
    owner,
    run,
    runOnce,
    files: (folder) => files(folder, folder),
    place: transport.place,
  });
  const workspace: Workspace = { ...files(options.root, probe.realRoot), commitJournal };
  let closing: Promise<void> | undefined;
  return {
    kind: transport.kind,
    platform: 'linux',
    workspace,
    processes: remoteProcesses(transport, probe, run),
    close() {
      closing ??= (async () => {
        await helpers?.close();
        await inputShell?.close();
        await transport.close();
      })();
      return closing;
    },
  };
}
