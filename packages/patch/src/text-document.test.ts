import { describe, expect, it } from 'vitest';
import { decodeText, encodeDocument, sameBytes } from './text-document.js';
import { spliceDocument } from './splice-document.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('sameBytes', () => {
  it('compares whole arrays and pieces by their bytes, wherever the pieces are cut', () => {
    const whole = bytes('one\ntwo\nthree\n');
    const cuts = [
      [whole.subarray(0, 4), whole.subarray(4)],
      [new Uint8Array(0), whole.subarray(0, 1), whole.subarray(1, 13), whole.subarray(13), new Uint8Array(0)],
    ];
    for (const pieces of cuts) {
      expect(sameBytes(pieces, whole)).toBe(true);
      expect(sameBytes(whole, pieces)).toBe(true);
      expect(sameBytes(pieces, cuts[0])).toBe(true);
    }
    expect(sameBytes([bytes('one\n'), bytes('twX\nthree\n')], whole)).toBe(false);
    expect(sameBytes([bytes('one\n'), bytes('two\nthree')], whole)).toBe(false);
    expect(sameBytes([bytes('one\n')], [bytes('one'), bytes('!')])).toBe(false);
    expect(sameBytes(undefined, [])).toBe(false);
    expect(sameBytes(undefined, undefined)).toBe(true);
  });
});

describe('spliceDocument', () => {
  it('makes the new document of pieces of the old bytes and the new lines; its text and lines join them on demand', () => {
    const decoded = decodeText(bytes('\uFEFFa\r\nb\r\nc'));
    if (!decoded.ok) throw new Error(decoded.message);
    const { document } = spliceDocument(
      decoded.document,
      [{ from: 0, to: 1 }, { lines: [{ text: 'B', eol: '\r\n' }] }, { from: 2, to: 3 }],
      '\r\n',
    );
    const content = encodeDocument(document);
    expect(Array.isArray(content)).toBe(true);
    expect(sameBytes(content, bytes('\uFEFFa\r\nB\r\nc'))).toBe(true);
    expect(document.text).toBe('a\r\nB\r\nc');
    expect(document.lines.textAt(1)).toBe('B');
    expect(document.bytes).toEqual(bytes('\uFEFFa\r\nB\r\nc'));
  });
});
