import { describe, expect, it } from 'vitest';
import { FrameDemuxer } from './frame-demuxer.js';

function frame(type: number, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

describe('FrameDemuxer', () => {
  it('splits stdout and stderr frames, whatever the chunking', () => {
    const stream = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err\n'), frame(1, ''), frame(1, 'out two\n')]);
    for (const size of [1, 3, 8, 9, stream.length]) {
      const out: string[] = [];
      const err: string[] = [];
      const demuxer = new FrameDemuxer(
        (chunk) => out.push(chunk.toString()),
        (chunk) => err.push(chunk.toString()),
      );
      for (let at = 0; at < stream.length; at += size) demuxer.push(stream.subarray(at, at + size));
      expect(out.join('')).toBe('out one\nout two\n');
      expect(err.join('')).toBe('err\n');
    }
  });

  it('sends stderr to the stdout listener when no stderr listener is given', () => {
    const all: string[] = [];
    const demuxer = new FrameDemuxer((chunk) => all.push(chunk.toString()));
    demuxer.push(Buffer.concat([frame(1, 'a'), frame(2, 'b'), frame(1, 'c')]));
    expect(all.join('')).toBe('abc');
  });
});
