import type { ClientChannel } from 'ssh2';
import { ExitSentinelScanner, newSentinelNonce, remoteKillScript, REMOTE_START_SCRIPT, remoteStartArguments, type ExecProcess, type Executor, type ProcessExit, type SpawnRequest } from '@toolhost/core';
import { shellQuote } from './shell-quote.js';
import type { SshPool } from './ssh-pool.js';

/** The variable carrying a command's marker. */
const MARKER_VARIABLE = 'TOOLHOST_SESSION';

/**
 * When a command ends without its exit sentinel (its start shell was killed, or the connection dropped), output counts
 * as drained after the exit once nothing arrived for this long, or at the latest after the maximum.
 */
const DRAIN_QUIET_MS = 25;
const DRAIN_MAX_MS = 250;

/**
 * A start shell that exited on its own wrote the exit sentinel, which may still be on its way behind the output: it is
 * waited for until nothing arrived for this long (a start shell that could not run at all writes none).
 */
const SENTINEL_QUIET_MS = 5_000;

const SIGNAL_NUMBERS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, ABRT: 6, KILL: 9, SEGV: 11, PIPE: 13, ALRM: 14, TERM: 15 };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What one helper run returned. */
export interface SshScriptOutcome {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

/** The command line (for the login shell) that runs `script` under /bin/sh with positional arguments. */
function shCommand(script: string, args: string[]): string {
  return ['/bin/sh', '-c', script, 'toolhost', ...args].map(shellQuote).join(' ');
}

/** Runs a POSIX sh helper on the host and collects its output; never for commands of the model. */
export async function runSshScript(pool: SshPool, script: string, args: string[] = []): Promise<SshScriptOutcome> {
  const channel = await pool.exec(shCommand(script, args), {});
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  return new Promise((resolve) => {
    let exitCode = 255;
    channel.on('data', (chunk: Buffer) => stdout.push(chunk));
    channel.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    channel.on('exit', (code: number | null) => (exitCode = code ?? 255));
    const done = () => resolve({ exitCode, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') });
    channel.on('close', done);
    channel.on('connection-lost', () => {
      exitCode = 255;
      done();
    });
    channel.end();
  });
}

class SshProcess implements ExecProcess {
  readonly pid = 0;
  private readonly dataListeners: Array<(chunk: Uint8Array) => void> = [];
  private readonly queued: Uint8Array[] = [];
  private settleListeners: Array<(exit: ProcessExit) => void> = [];
  private exit: ProcessExit | undefined;
  private settled = false;
  private quietTimer: NodeJS.Timeout | undefined;
  private maxTimer: NodeJS.Timeout | undefined;
  private quietMs = DRAIN_QUIET_MS;
  private readonly exited: Promise<void>;
  private killed = false;

  constructor(
    private readonly pool: SshPool,
    private readonly channel: ClientChannel,
    private readonly marker: string | undefined,
    private readonly scanner: ExitSentinelScanner,
  ) {
    channel.on('data', (chunk: Buffer) => this.receive(chunk));
    // The start script sends stderr to stdout; anything on stderr comes from the login shell before it.
    channel.stderr.on('data', (chunk: Buffer) => this.emit(chunk));
    channel.on('error', () => {});
    this.exited = new Promise<void>((resolve) => {
      // Settle on `exit` (the process state), not on `close`, which waits for background children holding the output.
      channel.on('exit', (code: number | null, signal?: string) => {
        if (code !== null && code !== undefined) this.exited_({ exitCode: code });
        else {
          const name = signal ? signal.replace(/^SIG/, '') : 'KILL';
          this.exited_({ exitCode: 128 + (SIGNAL_NUMBERS[name] ?? 9), signal: `SIG${name}` });
        }
        resolve();
      });
      channel.on('connection-lost', () => {
        if (!this.exit) {
          this.emit(Buffer.from('\n[toolhost: the SSH connection dropped while this command ran; its exit code is unknown]\n'));
          this.exited_({ exitCode: 255 });
        }
        resolve();
      });
      channel.on('close', () => {
        if (!this.exit) this.exited_({ exitCode: 255 });
        resolve();
      });
    });
  }

  /** Output from the channel: the exit sentinel, once read, settles the command with everything before it delivered. */
  private receive(chunk: Uint8Array): void {
    const { output, exitCode } = this.scanner.scan(chunk);
    if (output.length > 0) this.emit(output);
    if (exitCode === undefined || this.settled) return;
    this.exit = exitCode >= 128 && this.killed ? { exitCode, signal: 'SIGKILL' } : { exitCode };
    this.settle();
  }

  private exited_(exit: ProcessExit): void {
    if (this.exit) return;
    this.exit = exit;
    this.awaitOutput(exit);
  }

  private emit(chunk: Uint8Array): void {
    if (this.settled) return;
    if (this.dataListeners.length === 0) this.queued.push(chunk);
    else for (const listener of this.dataListeners) listener(chunk);
    if (this.exit) this.armQuietTimer();
  }

  /** After the exit: wait for the sentinel when the start shell ran to its end, else for a short quiet spell. */
  private awaitOutput(exit: ProcessExit): void {
    if (exit.signal === undefined && exit.exitCode < 128) this.quietMs = SENTINEL_QUIET_MS;
    else this.maxTimer = setTimeout(() => this.settle(), DRAIN_MAX_MS);
    this.armQuietTimer();
  }

  private armQuietTimer(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.settle(), this.quietMs);
  }

  private settle(): void {
    if (this.settled || !this.exit) return;
    if (!this.scanner.complete) {
      const held = this.scanner.flush();
      if (held.length > 0) this.emit(held);
    }
    this.settled = true;
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxTimer);
    // Stop waiting for background children that hold the output open: their processes stay (and are found by marker).
    this.channel.close();
    const listeners = this.settleListeners;
    this.settleListeners = [];
    for (const listener of listeners) listener(this.exit);
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.dataListeners.push(listener);
    for (const chunk of this.queued.splice(0)) listener(chunk);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    if (this.settled && this.exit) listener(this.exit);
    else this.settleListeners.push(listener);
  }

  write(text: string): void {
    if (!this.exit && this.channel.writable) this.channel.write(text);
  }

  pause(): void {
    this.channel.pause();
  }

  resume(): void {
    this.channel.resume();
  }

  /** Resizes the terminal (PTY channels only). */
  resize(rows: number, cols: number): void {
    this.channel.setWindow(rows, cols, 0, 0);
  }

  async kill(): Promise<void> {
    this.killed = true;
    // OpenSSH refuses signal requests for root: a second channel kills every process carrying this command's marker.
    if (this.marker !== undefined) await runSshScript(this.pool, remoteKillScript({ exact: this.marker })).catch(() => undefined);
    await Promise.race([this.exited, delay(5_000)]);
    if (!this.exit) this.exited_({ exitCode: 137, signal: 'SIGKILL' });
    this.settle();
  }
}

/** An SSH exec backend: channels without (`pipe`) or with (`pty`) a pseudo-terminal. */
export function createSshExecutor(pool: SshPool, kind: 'pipe' | 'pty'): Executor {
  const tty = kind === 'pty';
  return {
    kind,
    async spawn(request: SpawnRequest): Promise<ExecProcess> {
      // sshd accepts few `env` requests, so the start script exports the variables itself.
      const script = tty ? REMOTE_START_SCRIPT : `exec 2>&1\n${REMOTE_START_SCRIPT}`;
      const nonce = newSentinelNonce();
      const [, ...args] = remoteStartArguments(request, nonce);
      const channel = await pool.exec(shCommand(script, args), tty ? { pty: { rows: request.rows, cols: request.cols, term: request.env.TERM ?? 'xterm-256color' } } : {});
      return new SshProcess(pool, channel, request.env[MARKER_VARIABLE], new ExitSentinelScanner(nonce));
    },
  };
}
