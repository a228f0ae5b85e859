import type Dockerode from 'dockerode';
import type { Duplex } from 'node:stream';
import type { RemoteChannel, RemoteEnd, RemoteStartRequest, RemoteTransport } from '@toolhost/remote';
import { FrameDemuxer } from './frame-demuxer.js';

/**
 * How often an exec's state is polled once its end is near (its stream ended, or a kill was asked for): quickly at
 * first, then backing off.
 */
const POLL_STEPS_MS = [2, 4, 8, 16, 32, 64, 100];

/**
 * How often an exec's state is read while its stream is open and no kill was asked for: the exit sentinel on the
 * stream normally ends a command first, so this only catches a start shell that died while a background child holds
 * the stream open.
 */
const IDLE_POLL_MS = 1_000;

/** How often the stream's end and a kill request are looked for between polls (no API request). */
const WATCH_MS = 20;

/**
 * Docker 20.10 ignores the console size given at creation and the resize arrives after the start: a TTY command first
 * waits (at most about 1 s) until its terminal has a size, so it never sees 0×0.
 */
const AWAIT_TERMINAL_SIZE =
  'i=0; while [ $i -lt 100 ]; do case $(stty size 2>/dev/null) in ""|"0 0") i=$((i + 1)); sleep 0.01;; *) break;; esac; done';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Describes a Docker API error in one line. */
export function dockerErrorMessage(error: unknown): string {
  const value = error as { statusCode?: number; json?: { message?: string }; message?: string };
  const message = value?.json?.message ?? value?.message ?? String(error);
  return value?.statusCode ? `Docker answered ${value.statusCode}: ${message}` : message;
}

/** What the exit watch of one exec looks at between API requests. */
interface ExitWatch {
  /** The channel was released: nobody waits for the exit any more. */
  stopped(): boolean;
  /** The exec's stream ended or broke, or a kill was asked for: the exit is near. */
  ending(): boolean;
}

/**
 * Reads `exec.inspect()` until the process has exited; the exit code, or undefined when the exec vanished or the watch
 * was stopped. Polls quickly once the exit is near, and otherwise once every {@link IDLE_POLL_MS}, so a command that
 * ends by its exit sentinel costs no inspect at all.
 */
export async function waitForExecExit(exec: Pick<Dockerode.Exec, 'inspect'>, watch: ExitWatch): Promise<number | undefined> {
  let idleSince = Date.now();
  for (let attempt = 0; ;) {
    if (watch.stopped()) return undefined;
    const near = watch.ending();
    if (!near && Date.now() - idleSince < IDLE_POLL_MS) {
      await delay(WATCH_MS);
      continue;
    }
    let info: Dockerode.ExecInspectInfo;
    try {
      info = await exec.inspect();
    } catch {
      return undefined;
    }
    if (!info.Running) return info.ExitCode ?? undefined;
    if (near) await delay(POLL_STEPS_MS[Math.min(attempt++, POLL_STEPS_MS.length - 1)]!);
    else idleSince = Date.now();
  }
}

/** True while the container runs; its state may lag its processes' deaths by a moment, so it is read a few times. */
async function containerRuns(container: Dockerode.Container): Promise<boolean> {
  let running = false;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      running = Boolean((await container.inspect()).State?.Running);
    } catch {
      running = false; // The container is gone.
    }
    if (!running) break;
    await delay(50);
  }
  return running;
}

/**
 * True while a process in the container carries `TOOLHOST_SESSION=<marker>` (zombies excluded), read from Docker's
 * `top` (the engine's `ps` with environments): one API call and no process started in the container. Undefined when
 * top is unavailable.
 */
async function markerInTop(container: Dockerode.Container, marker: string): Promise<boolean | undefined> {
  let top: { Titles?: string[]; Processes?: string[][] };
  try {
    top = (await container.top({ ps_args: '-o stat,args e' })) as typeof top;
  } catch {
    return undefined;
  }
  const titles = top.Titles ?? [];
  const stat = titles.indexOf('STAT');
  const args = titles.indexOf('COMMAND');
  if (stat < 0 || args < 0) return undefined;
  const needle = new RegExp(`(^|\\s)TOOLHOST_SESSION=${marker}(\\s|$)`);
  return (top.Processes ?? []).some((row) => !(row[stat] ?? '').startsWith('Z') && needle.test(row[args] ?? ''));
}

/** Listeners told once. */
class Once<T> {
  private readonly listeners: Array<(value: T) => void> = [];
  private value: { value: T } | undefined;

  add(listener: (value: T) => void): void {
    if (this.value) listener(this.value.value);
    else this.listeners.push(listener);
  }

  fire(value: T): void {
    if (this.value) return;
    this.value = { value };
    for (const listener of this.listeners.splice(0)) listener(value);
  }
}

/**
 * Listeners of one output stream. Chunks that arrive before the first listener are held for it: a TTY command may
 * print while its start still awaits the resize, before anyone could listen.
 */
function listenerList(): { add: (listener: (chunk: Buffer) => void) => void; emit: (chunk: Buffer) => void } {
  const listeners: Array<(chunk: Buffer) => void> = [];
  const early: Buffer[] = [];
  return {
    add: (listener) => {
      listeners.push(listener);
      if (listeners.length === 1) for (const chunk of early.splice(0)) listener(chunk);
    },
    emit: (chunk) => {
      if (listeners.length === 0) early.push(chunk);
      for (const listener of listeners) listener(chunk);
    },
  };
}

/** One Docker exec as a channel: the attach stream (demultiplexed without a TTY) and the exit from polling inspect. */
function execChannel(container: Dockerode.Container, exec: Dockerode.Exec, stream: Duplex, request: RemoteStartRequest): RemoteChannel {
  const stdout = listenerList();
  const stderr = listenerList();
  const exit = new Once<RemoteEnd>();
  const closed = new Once<void>();
  const toStdout = stdout.emit;
  const demuxer = request.terminal ? undefined : new FrameDemuxer(toStdout, stderr.emit);
  stream.on('data', (chunk: Buffer) => (demuxer ? demuxer.push(chunk) : toStdout(chunk)));
  stream.on('end', () => closed.fire());
  stream.on('close', () => closed.fire());
  stream.on('error', () => closed.fire());
  let released = false;
  let streamEnded = false;
  closed.add(() => (streamEnded = true));
  if (request.role === 'command') {
    // The stream's end is no exit signal (it may come seconds late, or before the exit): the exec's state is.
    void (async () => {
      const exitCode = await waitForExecExit(exec, { stopped: () => released, ending: () => streamEnded || request.killed() });
      if (released) return;
      // A vanished exec, or a kill nobody here asked for: say when the container itself went away.
      let note: string | undefined;
      if (exitCode === undefined || (exitCode >= 128 && !request.killed())) {
        if (!(await containerRuns(container))) note = 'the container stopped while this command ran';
        else if (exitCode === undefined) note = 'Docker lost track of this command; its exit code is unknown';
      }
      exit.fire({ ...(exitCode === undefined ? {} : { exitCode }), ...(note === undefined ? {} : { note }) });
    })();
  }
  return {
    onStdout: stdout.add,
    onStderr: stderr.add,
    onExit: (listener) => exit.add(listener),
    onClose: (listener) => closed.add(listener),
    write: (data) => void (stream.writable && stream.write(data)),
    endInput: () => void stream.end(),
    pause: () => void stream.pause(),
    resume: () => void stream.resume(),
    resize: async (rows, cols) => {
      await exec.resize({ h: rows, w: cols });
    },
    close: () => {
      released = true;
      stream.destroy();
    },
  };
}

/**
 * Docker as a remote transport: each process is a `docker exec` of `/bin/sh -c` (a TTY when asked), its exit read
 * from the exec's state; `user` for commands and helper shells, the container's own user for one-off scripts.
 */
export function createDockerTransport(
  container: Dockerode.Container,
  user: string | undefined,
  release: () => Promise<void>,
): RemoteTransport {
  return {
    kind: 'docker',
    place: 'in the container',
    lostHint: 'the container may have stopped',
    setsVariables: true,
    async start(request) {
      const tty = request.terminal !== undefined;
      const exec = await container.exec({
        Cmd: ['/bin/sh', '-c', tty ? `${AWAIT_TERMINAL_SIZE}\n${request.script}` : request.script, 'toolhost', ...request.args],
        ...(request.role === 'command' ? { Env: Object.entries(request.env).map(([name, value]) => `${name}=${value}`) } : {}),
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: tty,
        ...(user === undefined || request.role === 'script' ? {} : { User: user }),
        ...(tty ? { ConsoleSize: [request.terminal!.rows, request.terminal!.cols] as [number, number] } : {}),
      });
      const stream = (await exec.start({ hijack: true, stdin: true, Tty: tty })) as Duplex;
      const channel = execChannel(container, exec, stream, request);
      // Docker 20.10 ignores the console size given at creation: set it again now that the process runs.
      if (tty) await channel.resize(request.terminal!.rows, request.terminal!.cols).catch(() => undefined);
      return channel;
    },
    findMarked: (marker) => markerInTop(container, marker),
    close: release,
  };
}
