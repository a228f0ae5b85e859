import type * as NodePty from '@lydell/node-pty';
import { constants } from 'node:os';
import type { ExecProcess, Executor, ProcessExit, SpawnRequest } from './executor.js';
import { signalExitCode } from './executor.js';
import { ExitSentinelScanner, newSentinelNonce, ProcessListeners } from '@toolhost/core';
import { EXIT_SENTINEL_SCRIPT } from './pty-sentinel-script.js';
import { killProcessTree } from './process-tree.js';
import { withTimeout } from './with-timeout.js';

const signalNames = new Map(Object.entries(constants.signals as Record<string, number>).map(([name, number]) => [number, name]));

/** The shell that runs the exit-reporting wrapper. */
const WRAPPER_SHELL = '/bin/sh';

/** Longest wait for the killed wrapper to be reaped once the sentinel was read. */
const WRAPPER_REAP_MS = 100;

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A command on a PTY. node-pty's exit event is no proof that the output was read: libuv takes the hang-up of the
 * terminal after a short read as the end of the stream, and node-pty destroys the stream 200 ms after the exit. So the
 * command runs under a wrapper that prints a sentinel with the exit status once the command has exited and then stops,
 * holding the terminal open; the process settles when the sentinel is read, which is after every byte written before it.
 */
class PtyProcess implements ExecProcess {
  readonly pid: number;
  private readonly listeners = new ProcessListeners();
  private readonly exited: Promise<void>;
  private readonly scanner: ExitSentinelScanner;
  /** Resolves once the wrapper is gone: reaped after the sentinel (looked for every millisecond), or exited. */
  readonly reaped: Promise<void>;
  private markReaped!: () => void;

  constructor(
    private readonly terminal: NodePty.IPty,
    nonce: string,
  ) {
    this.pid = terminal.pid;
    this.scanner = new ExitSentinelScanner(nonce);
    let markExited!: () => void;
    this.exited = new Promise((resolve) => (markExited = resolve));
    this.reaped = new Promise((resolve) => (this.markReaped = resolve));
    // With `encoding: null` node-pty hands over Buffers, though its typings say string.
    terminal.onData((data) => this.receive(data as unknown as Uint8Array));
    terminal.onExit(({ exitCode, signal }) => {
      markExited();
      this.markReaped();
      // Only when the wrapper itself was killed (by close(), or by the command) does the sentinel never come.
      if (!this.scanner.complete) {
        const rest = this.scanner.flush();
        if (rest.length > 0) this.listeners.emit(rest);
        this.listeners.settle(signal ? { exitCode: signalExitCode(signal), signal: signalNames.get(signal) } : { exitCode });
      }
    });
  }

  private receive(chunk: Uint8Array): void {
    const scan = this.scanner.scan(chunk);
    if (scan.output.length > 0) this.listeners.emit(scan.output);
    if (scan.exitCode !== undefined) {
      // Every byte before the sentinel has been read: end the stopped wrapper and report the exit now. Its process
      // group says whether the command left processes behind only once it is reaped (see wrapperReaped).
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      const deadline = performance.now() + WRAPPER_REAP_MS;
      const waitForReap = () => {
        if (!processExists(this.pid) || performance.now() > deadline) this.markReaped();
        else setTimeout(waitForReap, 1);
      };
      waitForReap();
      this.listeners.settle({ exitCode: scan.exitCode });
    }
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.listeners.onData(listener);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    this.listeners.onSettled(listener);
  }

  write(text: string): void {
    if (!this.listeners.settled) this.terminal.write(text);
  }

  pause(): void {
    this.terminal.pause();
  }

  resume(): void {
    this.terminal.resume();
  }

  async kill(): Promise<void> {
    await killProcessTree(this.pid);
    await withTimeout(this.exited, 5_000);
  }
}

/** Resolves once a PTY process's wrapper is gone (its process group then holds only what the command left); at once for others. */
export function wrapperReaped(process: ExecProcess): Promise<void> {
  return process instanceof PtyProcess ? process.reaped : Promise.resolve();
}

let nodePty: Promise<typeof NodePty> | undefined;

// node-pty is a native addon: load it on the first PTY spawn, so importing this package (e.g. for its schemas) never does.
function loadNodePty(): Promise<typeof NodePty> {
  nodePty ??= import('@lydell/node-pty').then((module) => {
    const loaded = module as typeof NodePty & { default?: typeof NodePty };
    return typeof loaded.spawn === 'function' ? loaded : (loaded.default as typeof NodePty);
  });
  return nodePty;
}

/**
 * The PTY backend (node-pty): the command runs on a pseudo-terminal, in a new session led by a small `/bin/sh` wrapper
 * that reports the exit in-band, so a settled process has delivered every byte it wrote.
 */
export function createPtyExecutor(): Executor {
  return {
    kind: 'pty',
    async spawn(request: SpawnRequest): Promise<ExecProcess> {
      const pty = await loadNodePty();
      const nonce = newSentinelNonce();
      const terminal = pty.spawn(WRAPPER_SHELL, ['-c', EXIT_SENTINEL_SCRIPT, 'toolhost-exec', nonce, request.file, ...request.args], {
        name: request.env.TERM ?? 'xterm-256color',
        cols: request.cols,
        rows: request.rows,
        cwd: request.cwd,
        env: request.env,
        encoding: null,
      });
      return new PtyProcess(terminal, nonce);
    },
  };
}
