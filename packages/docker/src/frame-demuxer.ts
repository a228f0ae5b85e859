/**
 * Splits Docker's multiplexed attach stream (used when the exec has no TTY) into its payloads: each frame is an 8-byte
 * header (stream type, three zero bytes, big-endian length) and that many bytes. stdout and stderr both reach `onStdout`
 * unless `onStderr` is given.
 */
export class FrameDemuxer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onStdout: (chunk: Buffer) => void,
    private readonly onStderr: (chunk: Buffer) => void = onStdout,
  ) {}

  /** Feeds bytes as they arrive from the stream. */
  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + length) break;
      const type = this.pending[0];
      const payload = this.pending.subarray(8, 8 + length);
      this.pending = this.pending.subarray(8 + length);
      if (payload.length === 0) continue;
      if (type === 2) this.onStderr(payload);
      else this.onStdout(payload);
    }
  }
}
