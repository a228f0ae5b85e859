import { SerialQueue } from '@toolhost/core';
import type { RemoteChannel } from './remote-transport.js';
import { newTrailerMarker, type ScriptOutcome } from './script-runner.js';
import { batchProgram, splitBatchOutput, stepCommand, type ScriptStep } from './script-steps.js';

/** Longest a helper request may take. */
const REQUEST_TIMEOUT_MS = 60_000;

interface Request {
  marker: string;
  resolve: (outcome: ScriptOutcome) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived helper shell: each request is a script run in a subshell with its arguments (input, when any, arrives
 * as a base64 here-document), followed by a random trailer carrying its exit code. Requests run one at a time; a
 * request costs one round trip and no process start by the engine.
 */
class HelperShell {
  private readonly queue = new SerialQueue();
  private current: Request | undefined;
  private buffer: Buffer[] = [];
  private tail = '';
  dead = false;

  constructor(
    private readonly stream: RemoteChannel,
    private readonly lostHint: string,
  ) {
    stream.onStdout((chunk) => this.receive(chunk));
    stream.onClose(() => {
      this.dead = true;
      this.current?.reject(new Error(`the helper shell ended (${lostHint})`));
      this.current = undefined;
    });
  }

  private receive(chunk: Buffer): void {
    const request = this.current;
    if (!request) return;
    this.buffer.push(chunk);
    this.tail = (this.tail + chunk.toString('latin1')).slice(-80);
    const found = new RegExp(`${request.marker}(\\d+)\\n$`).exec(this.tail);
    if (!found) return;
    const all = Buffer.concat(this.buffer);
    const trailer = found[0].length;
    this.current = undefined;
    this.buffer = [];
    this.tail = '';
    request.resolve({ exitCode: Number(found[1]), stdout: all.subarray(0, all.length - trailer), stderr: '' });
  }

  run(script: string, args: string[], input?: Uint8Array): Promise<ScriptOutcome> {
    return this.send(stepCommand({ script, args, ...(input === undefined ? {} : { input }) }, '2>/dev/null'));
  }

  /** Runs the steps in order as one request; errors of the steps are dropped, as for every request. */
  async runBatch(steps: readonly ScriptStep[]): Promise<ScriptOutcome[]> {
    const marker = newTrailerMarker();
    const outcome = await this.send(batchProgram(steps, marker, '2>/dev/null'));
    return splitBatchOutput(outcome.stdout, '', marker, steps.length, `the helper shell did not finish the request (${this.lostHint})`);
  }

  /** Sends shell text (ending in a newline) and resolves with what it printed once the request's trailer is read. */
  private send(text: string): Promise<ScriptOutcome> {
    const task = () =>
      new Promise<ScriptOutcome>((resolve, reject) => {
        if (this.dead) return reject(new Error(`the helper shell ended (${this.lostHint})`));
        const marker = newTrailerMarker();
        // A request that never completes (a stuck file system, a broken shell) fails, and this shell is replaced.
        const timer = setTimeout(() => {
          if (this.current?.marker !== marker) return;
          this.current = undefined;
          this.end();
          reject(new Error(`a helper request took longer than ${REQUEST_TIMEOUT_MS / 1000} s`));
        }, REQUEST_TIMEOUT_MS);
        this.current = {
          marker,
          resolve: (outcome) => {
            clearTimeout(timer);
            resolve(outcome);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        this.stream.write(`${text}printf '%s%d\\n' '${marker}' $?\n`);
      });
    return this.queue.run(task);
  }

  end(): void {
    this.dead = true;
    this.stream.endInput();
    this.stream.close();
  }
}

/** A few helper shells used in turn, each started on demand and replaced when it ends. */
export class HelperShellPool {
  private readonly shells: Array<Promise<HelperShell> | undefined>;
  private next = 0;
  private closed = false;

  /** `start` opens a `/bin/sh` reading scripts from its input; `lostHint` says what may have ended one. */
  constructor(
    private readonly start: () => Promise<RemoteChannel>,
    size: number,
    private readonly lostHint: string,
  ) {
    this.shells = Array.from({ length: size }, () => undefined);
  }

  private async shell(): Promise<HelperShell> {
    if (this.closed) throw new Error('the environment is closed');
    const index = this.next;
    this.next = (this.next + 1) % this.shells.length;
    let pending = this.shells[index];
    if (pending) {
      const existing = await pending.catch(() => undefined);
      if (!existing || existing.dead) pending = undefined;
    }
    if (!pending) {
      pending = this.start().then((stream) => new HelperShell(stream, this.lostHint));
      this.shells[index] = pending;
      pending.catch(() => {
        if (this.shells[index] === pending) this.shells[index] = undefined;
      });
    }
    return pending;
  }

  /** Runs a POSIX sh script with positional arguments and optional input; resolves with its exit code and stdout. */
  async run(script: string, args: string[], input?: Uint8Array): Promise<ScriptOutcome> {
    return (await this.shell()).run(script, args, input);
  }

  /** Runs the steps in order as one request of one shell. */
  async runBatch(steps: readonly ScriptStep[]): Promise<ScriptOutcome[]> {
    return (await this.shell()).runBatch(steps);
  }

  /** Ends every shell. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.shells.splice(0)) (await pending?.catch(() => undefined))?.end();
  }
}
