import type { ClientChannel } from 'ssh2';
import {
  ExitSentinelScanner,
  newSentinelNonce,
  RemoteCommandOutput,
  remoteKillScript,
  REMOTE_START_SCRIPT,
  remoteStartArguments,
  type ExecProcess,
  type Executor,
  type ProcessExit,
  type SpawnRequest,
} from '@toolhost/core';
import { shellQuote } from './shell-quote.js';
import type { SshPool } from './ssh-pool.js';

/** The variable carrying a command's marker. */
const MARKER_VARIABLE = 'TOOLHOST_SESSION';

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
  private readonly output: RemoteCommandOutput;
  private readonly exited: Promise<void>;

  constructor(
    private readonly pool: SshPool,
    private readonly channel: ClientChannel,
    private readonly marker: string | undefined,
    scanner: ExitSentinelScanner,
  ) {
    // Once settled, stop waiting for background children that hold the output open: their processes stay (and are
    // found by marker).
    this.output = new RemoteCommandOutput(scanner, () => channel.close());
    channel.on('data', (chunk: Buffer) => this.output.receive(chunk));
    // The start script sends stderr to stdout; anything on stderr comes from the login shell before it.
    channel.stderr.on('data', (chunk: Buffer) => this.output.emit(chunk));
    channel.on('error', () => {});
    this.exited = new Promise<void>((resolve) => {
      // Settle on `exit` (the process state), not on `close`, which waits for background children holding the output.
      channel.on('exit', (code: number | null, signal?: string) => {
        if (code !== null && code !== undefined) this.output.exited({ exitCode: code });
        else {
          const name = signal ? signal.replace(/^SIG/, '') : 'KILL';
          this.output.exited({ exitCode: 128 + (SIGNAL_NUMBERS[name] ?? 9), signal: `SIG${name}` });
        }
        resolve();
      });
      channel.on('connection-lost', () => {
        if (!this.output.hasExit) {
          this.output.emit(Buffer.from('\n[toolhost: the SSH connection dropped while this command ran; its exit code is unknown]\n'));
          this.output.exited({ exitCode: 255 });
        }
        resolve();
      });
      channel.on('close', () => {
        this.output.exited({ exitCode: 255 });
        resolve();
      });
    });
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.output.onData(listener);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    this.output.onSettled(listener);
  }

  write(text: string): void {
    if (!this.output.hasExit && this.channel.writable) this.channel.write(text);
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
    this.output.killed = true;
    // OpenSSH refuses signal requests for root: a second channel kills every process carrying this command's marker.
    if (this.marker !== undefined) await runSshScript(this.pool, remoteKillScript({ exact: this.marker })).catch(() => undefined);
    await Promise.race([this.exited, delay(5_000)]);
    this.output.exited({ exitCode: 137, signal: 'SIGKILL' });
    this.output.settle();
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
      const channel = await pool.exec(
        shCommand(script, args),
        tty ? { pty: { rows: request.rows, cols: request.cols, term: request.env.TERM ?? 'xterm-256color' } } : {},
      );
      return new SshProcess(pool, channel, request.env[MARKER_VARIABLE], new ExitSentinelScanner(nonce));
    },
  };
}
