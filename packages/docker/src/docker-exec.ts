import type Dockerode from 'dockerode';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import {
  ExitSentinelScanner,
  newSentinelNonce,
  RemoteCommandOutput,
  REMOTE_START_SCRIPT,
  remoteStartArguments,
  type ExecProcess,
  type Executor,
  type ProcessExit,
  type SpawnRequest,
} from '@toolhost/core';
import { FrameDemuxer } from './frame-demuxer.js';
import type { ShellStream } from './helper-shell.js';
import type { ScriptOutcome } from './script-workspace.js';

/** The variable carrying a command's marker. */
const MARKER_VARIABLE = 'TOOLHOST_SESSION';

/** How often the exec's state is polled after start: quickly at first, then backing off. */
const POLL_STEPS_MS = [2, 4, 8, 16, 32, 64, 100];

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

/** Polls `exec.inspect()` until the process has exited; the exit code, or undefined when the exec vanished. */
async function waitForExecExit(exec: Dockerode.Exec, stopped: () => boolean): Promise<number | undefined> {
  for (let attempt = 0; ; attempt++) {
    let info: Dockerode.ExecInspectInfo;
    try {
      info = await exec.inspect();
    } catch {
      return undefined;
    }
    if (!info.Running) return info.ExitCode ?? undefined;
    if (stopped()) return undefined;
    await delay(POLL_STEPS_MS[Math.min(attempt, POLL_STEPS_MS.length - 1)]!);
  }
}

/**
 * Runs a POSIX sh helper in the container and collects its output; never for commands of the model. The helper runs in a
 * subshell followed by a random trailer carrying its exit code, so completion is known from the bytes themselves:
 * Docker's stream may end seconds late, and one more inspect round trip is saved.
 */
export async function runDockerScript(
  container: Dockerode.Container,
  script: string,
  args: string[],
  input?: Uint8Array,
): Promise<ScriptOutcome> {
  const marker = `:toolhost-${randomBytes(8).toString('hex')}:`;
  const exec = await container.exec({
    Cmd: ['/bin/sh', '-c', `(\n${script}\n)\nprintf '%s%d\\n' '${marker}' $?`, 'toolhost', ...args],
    AttachStdin: input !== undefined,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = (await exec.start({ hijack: true, stdin: input !== undefined })) as Duplex;
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let tail = '';
  const trailer = new RegExp(`${marker}(\\d+)\\n$`);
  const outcome = new Promise<number | undefined>((resolve) => {
    const demuxer = new FrameDemuxer(
      (chunk) => {
        stdout.push(chunk);
        tail = (tail + chunk.toString('latin1')).slice(-64);
        const found = trailer.exec(tail);
        if (found) resolve(Number(found[1]));
      },
      (chunk) => stderr.push(chunk),
    );
    stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
    stream.on('end', () => resolve(undefined));
    stream.on('close', () => resolve(undefined));
    stream.on('error', () => resolve(undefined));
  });
  if (input !== undefined) stream.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  const exitCode = await outcome;
  stream.destroy();
  const all = Buffer.concat(stdout);
  if (exitCode === undefined)
    return {
      exitCode: 255,
      stdout: all,
      stderr: Buffer.concat(stderr).toString('utf8') || 'the helper ended without reporting (the container may have stopped)',
    };
  const trailerLength = `${marker}${exitCode}\n`.length;
  return { exitCode, stdout: all.subarray(0, all.length - trailerLength), stderr: Buffer.concat(stderr).toString('utf8') };
}

/** Starts a long-lived helper `/bin/sh` in the container that reads scripts from its input. */
export async function startDockerShell(container: Dockerode.Container, user?: string): Promise<ShellStream> {
  const exec = await container.exec({
    Cmd: ['/bin/sh'],
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    ...(user === undefined ? {} : { User: user }),
  });
  const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
  const stdoutListeners: Array<(chunk: Buffer) => void> = [];
  const endListeners: Array<() => void> = [];
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const listener of endListeners) listener();
  };
  const demuxer = new FrameDemuxer(
    (chunk) => {
      for (const listener of stdoutListeners) listener(chunk);
    },
    () => {},
  );
  stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
  stream.on('end', end);
  stream.on('close', end);
  stream.on('error', end);
  return {
    write: (text) => void (stream.writable && stream.write(text)),
    onStdout: (listener) => void stdoutListeners.push(listener),
    onEnd: (listener) => void endListeners.push(listener),
    end: () => {
      stream.end();
      stream.destroy();
    },
  };
}

/**
 * True while a process in the container carries `TOOLHOST_SESSION=<marker>` (zombies excluded), read from Docker's
 * `top` (the engine's `ps` with environments): one API call and no process started in the container. Undefined when
 * top is unavailable.
 */
export async function markerInTop(container: Dockerode.Container, marker: string): Promise<boolean | undefined> {
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

class DockerProcess implements ExecProcess {
  readonly pid = 0;
  private readonly output: RemoteCommandOutput;
  private readonly demuxer: FrameDemuxer | undefined;
  private streamEnded = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly container: Dockerode.Container,
    private readonly exec: Dockerode.Exec,
    private readonly stream: Duplex,
    tty: boolean,
    private readonly marker: string | undefined,
    private readonly killMarked: (marker: string) => Promise<void>,
    scanner: ExitSentinelScanner,
  ) {
    this.output = new RemoteCommandOutput(scanner, () => stream.destroy());
    this.demuxer = tty ? undefined : new FrameDemuxer((chunk) => this.output.receive(chunk));
    stream.on('data', (chunk: Buffer) => (this.demuxer ? this.demuxer.push(chunk) : this.output.receive(chunk)));
    stream.on('error', () => {});
    // The stream's end is no exit signal (it may come seconds late), but once the exit is known it means all output is in.
    stream.on('end', () => {
      this.streamEnded = true;
      this.output.settle();
    });
    this.exited = this.watch();
  }

  private async watch(): Promise<void> {
    const exitCode = await waitForExecExit(this.exec, () => this.output.hasExit);
    if (this.output.hasExit) return;
    // A vanished exec, or a kill nobody here asked for: say when the container itself went away.
    if (exitCode === undefined || (exitCode >= 128 && !this.output.killed)) {
      // The container's state may lag its processes' deaths by a moment: look a few times.
      let running = false;
      for (let attempt = 0; attempt < 10; attempt++) {
        try {
          running = Boolean((await this.container.inspect()).State?.Running);
        } catch {
          running = false; // The container is gone.
        }
        if (!running) break;
        await delay(50);
      }
      if (!running) this.output.emit(Buffer.from('\n[toolhost: the container stopped while this command ran]\n'));
      else if (exitCode === undefined)
        this.output.emit(Buffer.from('\n[toolhost: Docker lost track of this command; its exit code is unknown]\n'));
    }
    // Docker's stream ends late (and never waits for background children): unless it has ended, wait for the sentinel,
    // or a quiet spell without one.
    this.output.exited(
      exitCode === undefined
        ? { exitCode: 137, signal: 'SIGKILL' }
        : exitCode >= 128 && this.output.killed
          ? { exitCode, signal: 'SIGKILL' }
          : { exitCode },
      this.streamEnded,
    );
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.output.onData(listener);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    this.output.onSettled(listener);
  }

  write(text: string): void {
    if (!this.output.hasExit && this.stream.writable) this.stream.write(text);
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  /** Resizes the terminal (TTY execs only). */
  async resize(rows: number, cols: number): Promise<void> {
    await this.exec.resize({ h: rows, w: cols });
  }

  async kill(): Promise<void> {
    this.output.killed = true;
    // Docker cannot kill an exec: a second exec kills every process carrying this command's marker, group included.
    if (this.marker !== undefined) await this.killMarked(this.marker).catch(() => undefined);
    await Promise.race([this.exited, delay(5_000)]);
    this.output.settle();
  }
}

/** A Docker exec backend for one container: pipes (`tty:false`) or a terminal (`tty:true`). */
export function createDockerExecutor(
  container: Dockerode.Container,
  kind: 'pipe' | 'pty',
  killMarked: (marker: string) => Promise<void>,
  user?: string,
): Executor {
  const tty = kind === 'pty';
  return {
    kind,
    async spawn(request: SpawnRequest): Promise<ExecProcess> {
      const nonce = newSentinelNonce();
      const exec = await container.exec({
        // Without a TTY, stderr joins stdout in the container so the two keep their order (as one pipe does locally).
        Cmd: [
          '/bin/sh',
          '-c',
          tty ? `${AWAIT_TERMINAL_SIZE}\n${REMOTE_START_SCRIPT}` : `exec 2>&1\n${REMOTE_START_SCRIPT}`,
          ...remoteStartArguments({ ...request, env: {} }, nonce),
        ],
        Env: Object.entries(request.env).map(([name, value]) => `${name}=${value}`),
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: tty,
        ...(user === undefined ? {} : { User: user }),
        ...(tty ? { ConsoleSize: [request.rows, request.cols] as [number, number] } : {}),
      });
      const stream = (await exec.start({ hijack: true, stdin: true, Tty: tty })) as Duplex;
      const child = new DockerProcess(
        container,
        exec,
        stream,
        tty,
        request.env[MARKER_VARIABLE],
        killMarked,
        new ExitSentinelScanner(nonce),
      );
      // Docker 20.10 ignores the console size given at creation: set it again now that the process runs.
      if (tty) await child.resize(request.rows, request.cols).catch(() => undefined);
      return child;
    },
  };
}
