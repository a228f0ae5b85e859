import { describe, expect, it } from 'vitest';
import { fileBytesLength, isPieces, joinFileBytes } from './file-bytes.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('FileBytes', () => {
  it('joins pieces in order, empty pieces included, and hands a whole array back as it is', () => {
    const pieces = [bytes('ab'), new Uint8Array(0), bytes('c\r\n'), bytes('é')];
    expect(isPieces(pieces)).toBe(true);
    expect(fileBytesLength(pieces)).toBe(7);
    expect(new TextDecoder().decode(joinFileBytes(pieces))).toBe('abc\r\né');
    const whole = bytes('whole');
    expect(isPieces(whole)).toBe(false);
    expect(fileBytesLength(whole)).toBe(5);
    expect(joinFileBytes(whole)).toBe(whole);
    expect(joinFileBytes([whole])).toBe(whole);
    expect(joinFileBytes([])).toEqual(new Uint8Array(0));
  });
});
