import {
  ExitSentinelScanner,
  newSentinelNonce,
  type ExecProcess,
  type Executor,
  type MarkerMatch,
  type ProcessExit,
  type SpawnRequest,
} from '@toolhost/core';
import { RemoteCommandOutput } from './remote-command-output.js';
import { REMOTE_START_SCRIPT, remoteStartArguments } from './remote-scripts.js';
import type { RemoteChannel, RemoteEnd, RemoteTransport } from './remote-transport.js';

/** The variable carrying a command's marker. */
const MARKER_VARIABLE = 'TOOLHOST_SESSION';

/** Longest a kill waits for the transport to report the exit. */
const KILL_WAIT_MS = 5_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A model's command on a remote, started by `REMOTE_START_SCRIPT` over a transport's channel: output with the exit
 * sentinel removed, the exit from the sentinel or the transport, and kills by marker through a second process.
 */
class RemoteProcess implements ExecProcess {
  readonly pid = 0;
  private readonly output: RemoteCommandOutput;
  private closed = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly channel: RemoteChannel,
    private readonly marker: string | undefined,
    private readonly killMarked: (match: MarkerMatch) => Promise<void>,
    scanner: ExitSentinelScanner,
  ) {
    // Once settled, stop reading: background children may hold the output open (their processes stay, found by marker).
    this.output = new RemoteCommandOutput(scanner, () => channel.close());
    channel.onStdout((chunk) => this.output.receive(chunk));
    // The start script sends stderr to stdout; anything on stderr comes from the shell before it.
    channel.onStderr((chunk) => this.output.emit(chunk));
    // The streams' end is no exit signal (it may come before the exit is reported), but once the exit is known it means
    // all output is in.
    channel.onClose(() => {
      this.closed = true;
      this.output.settle();
    });
    this.exited = new Promise<void>((resolve) => channel.onExit((end) => resolve(this.ended(end))));
  }

  private ended(end: RemoteEnd): void {
    if (this.output.hasExit) return;
    if (end.note !== undefined) this.output.emit(Buffer.from(`\n[toolhost: ${end.note}]\n`));
    const exit: ProcessExit =
      end.exitCode === undefined
        ? { exitCode: 137, signal: 'SIGKILL' }
        : end.signal !== undefined
          ? { exitCode: end.exitCode, signal: end.signal }
          : end.exitCode >= 128 && this.output.killed
            ? { exitCode: end.exitCode, signal: 'SIGKILL' }
            : { exitCode: end.exitCode };
    // Unless the streams have ended, wait for the sentinel, or a quiet spell without one.
    this.output.exited(exit, this.closed);
  }

  /** True once toolhost asked to kill the command. */
  get killed(): boolean {
    return this.output.killed;
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.output.onData(listener);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    this.output.onSettled(listener);
  }

  write(text: string): void {
    if (!this.output.hasExit) this.channel.write(text);
  }

  pause(): void {
    this.channel.pause();
  }

  resume(): void {
    this.channel.resume();
  }

  /** Resizes the terminal (commands started with one). */
  async resize(rows: number, cols: number): Promise<void> {
    await this.channel.resize(rows, cols);
  }

  async kill(): Promise<void> {
    this.output.killed = true;
    // A transport's own kill (a Docker exec, an SSH signal) is missing or refused: a second process kills every process
    // carrying this command's marker, its group included.
    if (this.marker !== undefined) await this.killMarked({ exact: this.marker }).catch(() => undefined);
    await Promise.race([this.exited, delay(KILL_WAIT_MS)]);
    this.output.exited({ exitCode: 137, signal: 'SIGKILL' });
    this.output.settle();
  }
}

/** An executor of commands over `transport`: pipes (stderr joined to stdout on the remote) or a terminal. */
export function createRemoteExecutor(
  transport: RemoteTransport,
  kind: 'pipe' | 'pty',
  killMarked: (match: MarkerMatch) => Promise<void>,
): Executor {
  const tty = kind === 'pty';
  return {
    kind,
    async spawn(request: SpawnRequest): Promise<ExecProcess> {
      const nonce = newSentinelNonce();
      // Without a terminal, stderr joins stdout on the remote so the two keep their order (as one pipe does locally).
      const script = tty ? REMOTE_START_SCRIPT : `exec 2>&1\n${REMOTE_START_SCRIPT}`;
      const [, ...args] = remoteStartArguments(transport.setsVariables ? { ...request, env: {} } : request, nonce);
      // The process exists only once the transport has started it; the transport may ask before.
      const started: { process?: RemoteProcess } = {};
      const channel = await transport.start({
        role: 'command',
        script,
        args,
        env: transport.setsVariables ? request.env : {},
        ...(tty ? { terminal: { rows: request.rows, cols: request.cols, term: request.env.TERM ?? 'xterm-256color' } } : {}),
        killed: () => started.process?.killed ?? false,
      });
      started.process = new RemoteProcess(channel, request.env[MARKER_VARIABLE], killMarked, new ExitSentinelScanner(nonce));
      return started.process;
    },
  };
}
