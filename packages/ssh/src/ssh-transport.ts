import type { ClientChannel, SFTPWrapper } from 'ssh2';
import type { RemoteChannel, RemoteEnd, RemoteTransport } from '@toolhost/remote';
import { createSftpWorkspace } from './sftp-workspace.js';
import { shellQuote } from './shell-quote.js';
import type { SshPool } from './ssh-pool.js';

const SIGNAL_NUMBERS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, ABRT: 6, KILL: 9, SEGV: 11, PIPE: 13, ALRM: 14, TERM: 15 };

/** The command line (for the login shell) that runs `script` under /bin/sh with positional arguments. */
function shCommand(script: string, args: string[]): string {
  return ['/bin/sh', '-c', script, 'toolhost', ...args].map(shellQuote).join(' ');
}

/** One exec channel as a remote channel; `connection-lost` is the pool's word for a dropped connection. */
function execChannel(channel: ClientChannel): RemoteChannel {
  const exitListeners: Array<(end: RemoteEnd) => void> = [];
  let end: RemoteEnd | undefined;
  const exited = (value: RemoteEnd) => {
    if (end) return;
    end = value;
    for (const listener of exitListeners.splice(0)) listener(value);
  };
  channel.on('error', () => {});
  // The process state, not the channel's close, which waits for background children holding the output.
  channel.on('exit', (code: number | null, signal?: string) => {
    if (code !== null && code !== undefined) exited({ exitCode: code });
    else {
      const name = signal ? signal.replace(/^SIG/, '') : 'KILL';
      exited({ exitCode: 128 + (SIGNAL_NUMBERS[name] ?? 9), signal: `SIG${name}` });
    }
  });
  channel.on('connection-lost', () =>
    exited({ exitCode: 255, note: 'the SSH connection dropped while this command ran; its exit code is unknown' }),
  );
  channel.on('close', () => exited({ exitCode: 255 }));
  return {
    onStdout: (listener) => void channel.on('data', listener),
    onStderr: (listener) => void channel.stderr.on('data', listener),
    onExit(listener) {
      if (end) listener(end);
      else exitListeners.push(listener);
    },
    onClose(listener) {
      let told = false;
      const once = () => {
        if (told) return;
        told = true;
        listener();
      };
      channel.on('close', once);
      channel.on('connection-lost', once);
    },
    write: (data) => void (channel.writable && channel.write(data)),
    endInput: () => void channel.end(),
    pause: () => void channel.pause(),
    resume: () => void channel.resume(),
    resize: async (rows, cols) => void channel.setWindow(rows, cols, 0, 0),
    close: () => void channel.close(),
  };
}

/** SFTP sessions a transport keeps open at most. */
const SFTP_SESSIONS = 4;

/**
 * An SSH host as a remote transport: each process is an exec channel of the pool (with a PTY when asked; sshd accepts
 * few `env` requests, so the start script exports the variables), files over SFTP.
 */
export function createSshTransport(pool: SshPool, host: string): RemoteTransport {
  const sessions: Array<Promise<SFTPWrapper> | undefined> = [];
  let turn = 0;
  // Calls take the sessions in turn: each is a server process of its own, so the flushes of a commit's files overlap.
  const session = () => {
    const index = turn++ % SFTP_SESSIONS;
    let opening = sessions[index];
    if (!opening) {
      const opened = pool.sftp().then(({ sftp, lost }) => {
        void lost.then(() => {
          if (sessions[index] === opened) sessions[index] = undefined;
        });
        return sftp;
      });
      opened.catch(() => {
        if (sessions[index] === opened) sessions[index] = undefined;
      });
      sessions[index] = opened;
      opening = opened;
    }
    return opening;
  };
  return {
    kind: 'ssh',
    place: `on ${host}`,
    lostHint: 'the SSH connection may have dropped',
    setsVariables: false,
    async start(request) {
      const terminal = request.terminal;
      const channel = await pool.exec(shCommand(request.script, request.args), terminal ? { pty: { ...terminal } } : {});
      return execChannel(channel);
    },
    workspace: (root, realRoot, run, options) => createSftpWorkspace(root, realRoot, session, run, options),
    async close() {
      pool.close();
    },
  };
}
