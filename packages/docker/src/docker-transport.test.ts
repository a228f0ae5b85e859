import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RemoteEnd, RemoteStartRequest } from '@toolhost/remote';
import { createDockerTransport } from './docker-transport.js';

/** A daemon stand-in that counts the API requests of one container's execs and answers inspect from a script. */
function recordedDaemon(states: Array<{ Running: boolean; ExitCode?: number }>) {
  const requests: string[] = [];
  const stream = new PassThrough();
  let inspected = 0;
  const exec = {
    start: async () => {
      requests.push('exec start');
      return stream;
    },
    inspect: async () => {
      requests.push('exec inspect');
      const state = states[Math.min(inspected++, states.length - 1)]!;
      return { ...state, ExitCode: state.ExitCode ?? null };
    },
    resize: async () => undefined,
  };
  const container = {
    exec: async () => {
      requests.push('exec create');
      return exec;
    },
    inspect: async () => {
      requests.push('container inspect');
      return { State: { Running: true } };
    },
  } as unknown as Dockerode.Container;
  return { container, stream, requests };
}

function commandRequest(killed: () => boolean = () => false): RemoteStartRequest {
  return { role: 'command', script: 'true', args: [], env: {}, killed };
}

/** One stdout frame of Docker's multiplexed stream. */
function frame(text: string): Buffer {
  const header = Buffer.alloc(8);
  header[0] = 1;
  header.writeUInt32BE(Buffer.byteLength(text), 4);
  return Buffer.concat([header, Buffer.from(text)]);
}

describe('createDockerTransport: API requests of one command', () => {
  afterEach(() => void vi.useRealTimers());

  it('reads no exec state while the stream is open: a command ended by its output costs create and start', async () => {
    vi.useFakeTimers();
    const daemon = recordedDaemon([{ Running: true }]);
    const transport = createDockerTransport(daemon.container, undefined, async () => undefined);
    const channel = await transport.start(commandRequest());
    const output = new Promise<string>((resolve) => channel.onStdout((chunk) => resolve(chunk.toString())));
    daemon.stream.write(frame('done\n'));
    expect(await output).toBe('done\n');
    await vi.advanceTimersByTimeAsync(900);
    // The remote process releases the channel once its exit sentinel is read; nothing polls after that.
    channel.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(daemon.requests).toEqual(['exec create', 'exec start']);
  });

  it('reads the exit once the stream has ended: one inspect when the process is gone', async () => {
    const daemon = recordedDaemon([{ Running: false, ExitCode: 3 }]);
    const transport = createDockerTransport(daemon.container, undefined, async () => undefined);
    const channel = await transport.start(commandRequest());
    const exit = new Promise<RemoteEnd>((resolve) => channel.onExit(resolve));
    channel.onStdout(() => undefined);
    daemon.stream.end(frame('bye\n'));
    expect(await exit).toEqual({ exitCode: 3 });
    expect(daemon.requests).toEqual(['exec create', 'exec start', 'exec inspect']);
  });

  it('polls quickly after a kill was asked for, while the stream stays open', async () => {
    let killed = false;
    const daemon = recordedDaemon([{ Running: true }, { Running: true }, { Running: false, ExitCode: 137 }]);
    const transport = createDockerTransport(daemon.container, undefined, async () => undefined);
    const channel = await transport.start(commandRequest(() => killed));
    const exit = new Promise<RemoteEnd>((resolve) => channel.onExit(resolve));
    const asked = performance.now();
    killed = true;
    expect(await exit).toEqual({ exitCode: 137 });
    // Well under the idle poll's second: the kill made the watch poll at once.
    expect(performance.now() - asked).toBeLessThan(900);
    expect(daemon.requests.filter((request) => request === 'exec inspect')).toHaveLength(3);
    channel.close();
  });

  it('still notices an exit with the stream held open (a background child), by an idle poll a second', async () => {
    vi.useFakeTimers();
    const daemon = recordedDaemon([{ Running: true }, { Running: false, ExitCode: 0 }]);
    const transport = createDockerTransport(daemon.container, undefined, async () => undefined);
    const channel = await transport.start(commandRequest());
    const exit = new Promise<RemoteEnd>((resolve) => channel.onExit(resolve));
    await vi.advanceTimersByTimeAsync(1_100);
    expect(daemon.requests).toEqual(['exec create', 'exec start', 'exec inspect']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await exit).toEqual({ exitCode: 0 });
    expect(daemon.requests).toEqual(['exec create', 'exec start', 'exec inspect', 'exec inspect']);
    channel.close();
  });
});

describe('createDockerTransport: output of a terminal command', () => {
  it('keeps what the command prints while its start still awaits the resize, for the first listener', async () => {
    const daemon = recordedDaemon([{ Running: true }]);
    const exec = await daemon.container.exec({});
    // The command prints before the resize (sent after the start) is answered.
    (exec as unknown as { resize: () => Promise<void> }).resize = async () => {
      daemon.stream.write('$ ready\r\n');
      await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const transport = createDockerTransport(daemon.container, undefined, async () => undefined);
    const channel = await transport.start({ ...commandRequest(), terminal: { rows: 24, cols: 80, term: 'xterm' } });
    const received: string[] = [];
    channel.onStdout((chunk) => received.push(chunk.toString()));
    daemon.stream.write('more\r\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(received.join('')).toBe('$ ready\r\nmore\r\n');
    channel.close();
  });
});
