import { Client, type ClientChannel, type ConnectConfig, type ExecOptions, type SFTPWrapper } from 'ssh2';

/** One connection and how many of its channels are open. */
interface PooledConnection {
  client: Client;
  ready: Promise<void>;
  channels: number;
  closed: boolean;
  /** Open exec channels, told when the connection drops. */
  open: Set<ClientChannel>;
}

/** A pool of SSH connections to one host: at most `channelsPerConnection` open channels each (OpenSSH's MaxSessions). */
export class SshPool {
  private readonly connections: PooledConnection[] = [];
  private closing = false;

  /**
   * @param checkHostKey - the refusal of a host key (thrown in place of ssh2's "Host denied"), or undefined to trust it;
   * without it, `config.hostVerifier` decides.
   */
  constructor(
    private readonly config: ConnectConfig,
    private readonly channelsPerConnection: number,
    private readonly checkHostKey?: (key: Buffer) => Error | undefined,
  ) {}

  private connect(): PooledConnection {
    const client = new Client();
    const pooled: PooledConnection = { client, channels: 0, closed: false, ready: Promise.resolve(), open: new Set() };
    let refused: Error | undefined;
    const check = this.checkHostKey;
    const hostVerifier = check === undefined ? this.config.hostVerifier : (key: Buffer) => (refused = check(key)) === undefined;
    pooled.ready = new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('error', (error) => reject(refused ?? error));
      client.once('close', () => reject(refused ?? new Error('the SSH connection closed before it was ready')));
    });
    pooled.ready.catch(() => {});
    client.on('error', () => {});
    client.on('close', () => {
      pooled.closed = true;
      // A dropped connection closes no channel by itself: tell each channel's user.
      for (const channel of [...pooled.open]) channel.emit('connection-lost');
      const index = this.connections.indexOf(pooled);
      if (index >= 0) this.connections.splice(index, 1);
    });
    client.connect({ keepaliveInterval: 5_000, keepaliveCountMax: 3, readyTimeout: 20_000, ...this.config, hostVerifier });
    // Every SFTP request and exec call is a small request waiting on a small answer: Nagle's algorithm would hold each
    // one back until the peer's delayed acknowledgement.
    client.setNoDelay(true);
    this.connections.push(pooled);
    return pooled;
  }

  /** A connection with a free channel (opening one when all are full), its channel count already taken. */
  private async acquire(): Promise<PooledConnection> {
    if (this.closing) throw new Error('the SSH environment is closed');
    const pooled =
      this.connections.find((candidate) => !candidate.closed && candidate.channels < this.channelsPerConnection) ?? this.connect();
    pooled.channels += 1;
    try {
      await pooled.ready;
    } catch (error) {
      pooled.channels -= 1;
      throw error;
    }
    return pooled;
  }

  private release(pooled: PooledConnection): void {
    pooled.channels -= 1;
  }

  /** Opens an exec channel; its slot is freed when the channel closes. */
  async exec(command: string, options: ExecOptions): Promise<ClientChannel> {
    const pooled = await this.acquire();
    return new Promise((resolve, reject) => {
      pooled.client.exec(command, options, (error, channel) => {
        if (error) {
          this.release(pooled);
          reject(error);
          return;
        }
        pooled.open.add(channel);
        channel.once('close', () => {
          if (pooled.open.delete(channel)) this.release(pooled);
        });
        resolve(channel);
      });
    });
  }

  /** Opens an SFTP session (it keeps one channel). */
  async sftp(): Promise<{ sftp: SFTPWrapper; lost: Promise<void> }> {
    const pooled = await this.acquire();
    return new Promise((resolve, reject) => {
      pooled.client.sftp((error, sftp) => {
        if (error) {
          this.release(pooled);
          reject(error);
          return;
        }
        const lost = new Promise<void>((done) => {
          sftp.once('close', () => {
            this.release(pooled);
            done();
          });
        });
        resolve({ sftp, lost });
      });
    });
  }

  /** Closes every connection. */
  close(): void {
    this.closing = true;
    for (const pooled of this.connections.splice(0)) pooled.client.end();
  }
}
