import type * as NodePty from '@lydell/node-pty';
import { constants } from 'node:os';
import type { ExecProcess, Executor, ProcessExit, SpawnRequest } from './executor.js';
import { signalExitCode } from './executor.js';
import { killProcessTree } from './process-tree.js';
import { withTimeout } from './with-timeout.js';

const signalNames = new Map(Object.entries(constants.signals as Record<string, number>).map(([name, number]) => [number, name]));

class PtyProcess implements ExecProcess {
  readonly pid: number;
  private readonly dataListeners: Array<(chunk: Uint8Array) => void> = [];
  private readonly queued: Uint8Array[] = [];
  private settleListeners: Array<(exit: ProcessExit) => void> = [];
  private exit: ProcessExit | undefined;
  private readonly exited: Promise<void>;

  constructor(private readonly terminal: NodePty.IPty) {
    this.pid = terminal.pid;
    let markExited!: () => void;
    this.exited = new Promise((resolve) => (markExited = resolve));
    // With `encoding: null` node-pty hands over Buffers, though its typings say string.
    terminal.onData((data) => this.emit(data as unknown as Uint8Array));
    // node-pty reports the exit once the PTY's read side has closed (or 200 ms later), so output is drained by then.
    terminal.onExit(({ exitCode, signal }) => {
      this.exit = signal ? { exitCode: signalExitCode(signal), signal: signalNames.get(signal) } : { exitCode };
      markExited();
      const listeners = this.settleListeners;
      this.settleListeners = [];
      for (const listener of listeners) listener(this.exit);
    });
  }

  private emit(chunk: Uint8Array): void {
    if (this.dataListeners.length === 0) this.queued.push(chunk);
    else for (const listener of this.dataListeners) listener(chunk);
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.dataListeners.push(listener);
    for (const chunk of this.queued.splice(0)) listener(chunk);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    if (this.exit) listener(this.exit);
    else this.settleListeners.push(listener);
  }

  write(text: string): void {
    if (!this.exit) this.terminal.write(text);
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

let nodePty: Promise<typeof NodePty> | undefined;

// node-pty is a native addon: load it on the first PTY spawn, so importing this package (e.g. for its schemas) never does.
function loadNodePty(): Promise<typeof NodePty> {
  nodePty ??= import('@lydell/node-pty').then((module) => {
    const loaded = module as typeof NodePty & { default?: typeof NodePty };
    return typeof loaded.spawn === 'function' ? loaded : (loaded.default as typeof NodePty);
  });
  return nodePty;
}

/** The PTY backend (node-pty): the command runs as the leader of a new session on a pseudo-terminal. */
export function createPtyExecutor(): Executor {
  return {
    kind: 'pty',
    async spawn(request: SpawnRequest): Promise<ExecProcess> {
      const pty = await loadNodePty();
      const terminal = pty.spawn(request.file, request.args, {
        name: request.env.TERM ?? 'xterm-256color',
        cols: request.cols,
        rows: request.rows,
        cwd: request.cwd,
        env: request.env,
        encoding: null,
      });
      return new PtyProcess(terminal);
    },
  };
}
