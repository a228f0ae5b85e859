import { SerialQueue } from '@toolhost/core';
import type { RemoteChannel } from './remote-transport.js';
import { newTrailerMarker, type ScriptOutcome } from './script-runner.js';
import { batchProgram, quoteWord, splitBatchOutput, stepCommand, type ScriptStep } from './script-steps.js';

/** Longest a helper request may take. */
const REQUEST_TIMEOUT_MS = 60_000;

interface Request {
  marker: string;
  resolve: (outcome: ScriptOutcome) => void;
  reject: (error: Error) => void;
  /** Written once the shell says it waits for it (`<marker>ready`): the request's raw input. */
  input?: Uint8Array;
}

/** Reads of this many bytes at most take one `dd` block; larger inputs are read a mebibyte a block. */
const ONE_BLOCK_MAX = 16 * 2 ** 20;
const BLOCK = 2 ** 20;

/** Shell text copying exactly `size` bytes of the shell's input to stdout: `dd` with full blocks never reads ahead. */
export function exactRead(size: number): string {
  const read = (bytes: number, count: number) => `dd bs=${bytes} count=${count} iflag=fullblock`;
  if (size === 0) return ':';
  if (size <= ONE_BLOCK_MAX) return read(size, 1);
  const rest = size % BLOCK;
  return `{ ${read(BLOCK, Math.floor(size / BLOCK))}${rest === 0 ? '' : `; ${read(rest, 1)}`}; }`;
}

/** The shell variable naming a helper shell's input file, made on its first raw request and reused. */
const INPUT_FILE = 'toolhost_input';

/**
 * The shell text of a request whose input is handed over raw: one brace group, so the shell has read all of it before
 * it runs any of it and nothing after it is in the pipe; it says `<marker>ready`, `dd` takes exactly the input's bytes
 * from the shell's own input, through `cat`, into the shell's input file (made once, emptied after each request,
 * removed when the shell exits; a second `cat` drains the rest when that file cannot take it), the script reads it, and its errors follow `<marker>err` on stdout. Without a temporary file
 * the input is still taken (to /dev/null) and the script reads nothing. The request ends with its own trailer
 * (`<marker><exit code>`): a shell runs the group as soon as it has read its closing line, so any text sent after it
 * could still be unread when the input is written, and `dd` would take that text while the shell read the input's end
 * as commands.
 */
export function rawInputRequest(script: string, args: string[], size: number, marker: string): string {
  return [
    `{ if [ -z "\${${INPUT_FILE}-}" ]; then ${INPUT_FILE}=$(mktemp 2>/dev/null) || ${INPUT_FILE}=`,
    `  [ -z "$${INPUT_FILE}" ] || trap 'rm -f -- "$${INPUT_FILE}" "$${INPUT_FILE}.e"' EXIT; fi`,
    `f=$${INPUT_FILE}`,
    `printf '%sready\\n' '${marker}'`,
    // The input is always read whole, even when the file cannot take it (a full disk): what is left unread would be
    // read by the shell as commands.
    `${exactRead(size)} 2>/dev/null | { cat >"\${f:-/dev/null}" 2>/dev/null || cat >/dev/null; }`,
    'e=${f:+$f.e}',
    `(set -- ${args.map(quoteWord).join(' ')}`,
    script,
    ') <"${f:-/dev/null}" 2>"${e:-/dev/null}"',
    's=$?',
    `printf '%serr\\n' '${marker}'`,
    // `true`, not `:`: a failed redirection of a special built-in would end the shell.
    '[ -z "$e" ] || { [ ! -s "$e" ] || cat -- "$e"; true 2>/dev/null >"$f"; true 2>/dev/null >"$e"; }',
    // The trailer is inside the group: nothing of the request may follow it in the pipe, where the input goes next.
    `printf '%s%d\\n' '${marker}' "$s"; unset f e s; }`,
    '',
  ].join('\n');
}

/** Splits a raw-input request's output at its `<marker>err` line: stdout before it, the script's errors after it. */
function splitErrors(outcome: ScriptOutcome, marker: string): ScriptOutcome {
  const separator = Buffer.from(`${marker}err\n`, 'latin1');
  const at = outcome.stdout.lastIndexOf(separator);
  if (at < 0) return outcome;
  return {
    exitCode: outcome.exitCode,
    stdout: outcome.stdout.subarray(0, at),
    stderr: outcome.stdout.subarray(at + separator.length).toString('utf8'),
  };
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
    if (request.input !== undefined && !this.takeReady(request)) return;
    // Only the last bytes can hold the trailer: a large answer is not turned into text.
    this.tail = (this.tail + chunk.toString('latin1', Math.max(0, chunk.length - 80))).slice(-80);
    const found = new RegExp(`${request.marker}(\\d+)\\n$`).exec(this.tail);
    if (!found) return;
    const all = Buffer.concat(this.buffer);
    const trailer = found[0].length;
    this.current = undefined;
    this.buffer = [];
    this.tail = '';
    request.resolve({ exitCode: Number(found[1]), stdout: all.subarray(0, all.length - trailer), stderr: '' });
  }

  /** Once the shell printed `<marker>ready` (the first thing it prints), hands it the raw input; false until then. */
  private takeReady(request: Request): boolean {
    const ready = `${request.marker}ready\n`;
    const head = Buffer.concat(this.buffer);
    if (head.length < ready.length) {
      this.buffer = [head];
      return false;
    }
    const input = request.input!;
    request.input = undefined;
    this.buffer = [head.subarray(ready.length)];
    // Anything else first means the shell is not running this request as sent; the timeout or close ends it.
    if (head.toString('latin1', 0, ready.length) === ready) this.stream.write(input);
    this.tail = head.subarray(ready.length).toString('latin1').slice(-80);
    return true;
  }

  /**
   * Runs a script whose input is handed over raw once the shell is ready for it (no encoding, no process started by
   * the engine); the script's errors come back too. Needs `dd iflag=fullblock` (see {@link HelperShellPool.takesRawInput}).
   */
  async runRaw(script: string, args: string[], input: Uint8Array): Promise<ScriptOutcome> {
    let sent = '';
    const outcome = await this.send((marker) => {
      sent = marker;
      return rawInputRequest(script, args, input.length, marker);
    }, input);
    return splitErrors(outcome, sent);
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
  private send(request: string | ((marker: string) => string), input?: Uint8Array): Promise<ScriptOutcome> {
    const task = () =>
      new Promise<ScriptOutcome>((resolve, reject) => {
        if (this.dead) return reject(new Error(`the helper shell ended (${this.lostHint})`));
        const marker = newTrailerMarker();
        const text = typeof request === 'string' ? request : request(marker);
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
          ...(input === undefined ? {} : { input }),
        };
        // A raw request carries its trailer (see rawInputRequest); the others get it appended.
        this.stream.write(input === undefined ? `${text}printf '%s%d\\n' '${marker}' $?\n` : text);
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
  private rawInput?: Promise<boolean>;

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

  /**
   * True when the remote's `dd` reads no more than it is asked for from a pipe (checked once), so a shell can be handed
   * raw input after its request: `dd` of 2 bytes then `cat` on one pipe must give back every byte (busybox's `head -c`
   * reads ahead, so it is not used).
   */
  takesRawInput(): Promise<boolean> {
    this.rawInput ??= this.run(`printf 'abcdef' | { ${exactRead(2)} 2>/dev/null; cat; }`, []).then(
      (outcome) => outcome.exitCode === 0 && outcome.stdout.toString('latin1') === 'abcdef',
      () => false,
    );
    return this.rawInput;
  }

  /** Runs a script on one shell with its input handed over raw, errors included; only where {@link takesRawInput}. */
  async runRaw(script: string, args: string[], input: Uint8Array): Promise<ScriptOutcome> {
    return (await this.shell()).runRaw(script, args, input);
  }

  /** Ends every shell. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.shells.splice(0)) (await pending?.catch(() => undefined))?.end();
  }
}
