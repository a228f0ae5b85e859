import { describe, expect, it } from 'vitest';
import { createRipgrepLineReader } from './ripgrep-line-reader.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function read(chunks: Uint8Array[]): { lines: Array<[string, string | undefined]>; ok: boolean } {
  const lines: Array<[string, string | undefined]> = [];
  const reader = createRipgrepLineReader((path, line) => lines.push([path, line]));
  let ok = true;
  for (const chunk of chunks) ok &&= reader.push(chunk);
  return { lines, ok: reader.end() && ok };
}

describe('createRipgrepLineReader', () => {
  it('reads path NUL line records split anywhere across chunks, keeping a CR and dropping a byte order mark', () => {
    const output = bytes(
      './src/a.py\u0000\ufeffGadget = 1\r\n./src/a.py\u0000x = Gadget\r\nsrc/b é.go\u0000func Gadget() {}\n./last.rs\u0000fn Gadget()',
    );
    const whole = read([output]);
    expect(whole).toEqual({
      ok: true,
      lines: [
        ['src/a.py', 'Gadget = 1\r'],
        ['src/a.py', 'x = Gadget\r'],
        ['src/b é.go', 'func Gadget() {}'],
        ['last.rs', 'fn Gadget()'],
      ],
    });
    for (let cut = 1; cut < output.length; cut++) expect(read([output.subarray(0, cut), output.subarray(cut)])).toEqual(whole);
    expect(read(Array.from(output, (byte) => Uint8Array.of(byte)))).toEqual(whole);
  });

  it('reads a binary file notice as a match it cannot show', () => {
    expect(read([bytes('./data/x.bin: binary file matches (found "\\0" byte around offset 10)\n./a.ts\u0000Gadget\n')])).toEqual({
      ok: true,
      lines: [
        ['data/x.bin', undefined],
        ['a.ts', 'Gadget'],
      ],
    });
  });

  it('gives up on a record it cannot take apart (a path with a line break)', () => {
    const result = read([bytes('./odd\nname.ts\u0000Gadget\n')]);
    expect(result.ok).toBe(false);
    const reader = createRipgrepLineReader(() => undefined);
    expect(reader.push(bytes('odd\n'))).toBe(false);
    expect(reader.push(bytes('a.ts\u0000Gadget\n'))).toBe(false);
    expect(reader.end()).toBe(false);
  });
});
