import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { RemoteChannel, RemoteEnd, RemoteTransport } from '../remote-transport.js';

/**
 * A transport to this machine through child_process, pipes only: what the kit needs from a transport, in one file, so
 * the kit is tested without Docker or SSH.
 */
export function createLocalTransport(): RemoteTransport & { started: string[] } {
  const started: string[] = [];
  return {
    kind: 'local-sh',
    place: 'on this machine',
    lostHint: 'the local shell may have been killed',
    setsVariables: false,
    started,
    async start(request): Promise<RemoteChannel> {
      if (request.terminal) throw new Error('this transport has no terminals');
      started.push(request.role);
      const child = spawn('/bin/sh', ['-c', request.script, 'toolhost', ...request.args], { stdio: 'pipe' });
      return channelOf(child);
    },
    async close() {},
  };
}

/** A channel over a child process with pipes, as a transport's start gives one. */
export function channelOf(child: ChildProcessWithoutNullStreams): RemoteChannel {
  const exitListeners: Array<(end: RemoteEnd) => void> = [];
  const closeListeners: Array<() => void> = [];
  let end: RemoteEnd | undefined;
  let closed = false;
  child.on('exit', (code, signal) => {
    end = code === null ? { exitCode: 137, signal: signal ?? 'SIGKILL' } : { exitCode: code };
    for (const listener of exitListeners.splice(0)) listener(end);
  });
  child.on('close', () => {
    closed = true;
    for (const listener of closeListeners.splice(0)) listener();
  });
  child.stdin.on('error', () => {});
  return {
    onStdout: (listener) => void child.stdout.on('data', listener),
    onStderr: (listener) => void child.stderr.on('data', listener),
    onExit: (listener) => (end ? listener(end) : void exitListeners.push(listener)),
    onClose: (listener) => (closed ? listener() : void closeListeners.push(listener)),
    write: (data) => void (child.stdin.writable && child.stdin.write(data)),
    endInput: () => void child.stdin.end(),
    pause: () => void child.stdout.pause(),
    resume: () => void child.stdout.resume(),
    resize: async () => {},
    close: () => {
      child.stdout.destroy();
      child.stderr.destroy();
    },
  };
}
