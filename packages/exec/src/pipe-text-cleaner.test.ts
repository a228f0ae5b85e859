import { describe, expect, test } from 'vitest';
import * as fc from 'fast-check';
import { PipeTextCleaner } from './pipe-text-cleaner.js';

function clean(...pieces: string[]): string {
  const cleaner = new PipeTextCleaner();
  return pieces.map((piece) => cleaner.push(piece)).join('') + cleaner.flush();
}

describe('PipeTextCleaner', () => {
  test('passes plain text through', () => {
    expect(clean('hello\nworld\n')).toBe('hello\nworld\n');
    expect(clean('tab\there\n')).toBe('tab\there\n');
  });

  test('removes CSI, OSC, DCS and charset sequences', () => {
    expect(clean('\u001b[1;31mred\u001b[0m plain\n')).toBe('red plain\n');
    expect(clean('\u001b]0;window title\u0007after\n')).toBe('after\n');
    expect(clean('\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\\n')).toBe('link\n');
    expect(clean('\u001bP1$r0m\u001b\\dcs\n')).toBe('dcs\n');
    expect(clean('\u001b(Bcharset\u001b=\n')).toBe('charset\n');
    expect(clean('\u009b31mc1\n')).toBe('c1\n');
    expect(clean('\u001b[?25lhidden cursor\u001b[?25h\n')).toBe('hidden cursor\n');
  });

  test('handles sequences split across chunks', () => {
    expect(clean('a\u001b', '[3', '1mb\u001b]0;t', 'itle\u001b', '\\c\n')).toBe('abc\n');
  });

  test('drops control characters except newline and tab', () => {
    expect(clean('a\u0000b\u0007c\u0001d\u007fe\n')).toBe('abcde\n');
  });

  test('turns CRLF into LF and lets a lone CR replace the line', () => {
    expect(clean('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    expect(clean('progress 10%\rprogress 50%\rprogress 100%\ndone\n')).toBe('progress 100%\ndone\n');
    expect(clean('10%\r', '\n')).toBe('10%\n');
    expect(clean('10%\r', '20%\n')).toBe('20%\n');
  });

  test('a lone CR replaces only the current line, never earlier lines of the same chunk', () => {
    expect(clean('first\nsecond\nbar 1\rbar 2\n')).toBe('first\nsecond\nbar 2\n');
    expect(clean('first\n\rsecond\n')).toBe('first\nsecond\n');
  });

  test('a backspace removes the previous character, never a newline', () => {
    expect(clean('abc\bd\n')).toBe('abd\n');
    expect(clean('line\n\bnext\n')).toBe('line\nnext\n');
  });

  test('property: complete lines without CR or backspace survive whatever follows in the same chunk', () => {
    const tail = fc.string({ unit: fc.constantFrom('a', '\n', '\r', '\b', '\u001b', '[', ']', 'm', '\u0007') });
    fc.assert(fc.property(tail, (rest) => clean(`kept line\n${rest}`).startsWith('kept line\n')));
  });

  test('an unterminated or malformed sequence does not swallow the output', () => {
    expect(clean('\u001b[12;\nvisible\n')).toBe('\nvisible\n');
    expect(clean(`\u001b]${'x'.repeat(10_000)}tail\n`).endsWith('tail\n')).toBe(true);
  });

  test('very long lines are passed on with bounded holding', () => {
    const cleaner = new PipeTextCleaner();
    const released = cleaner.push('x'.repeat(100_000));
    expect(released.length).toBeGreaterThanOrEqual(100_000 - 4096);
  });

  test('property: no escape or control character survives, whatever the chunking', () => {
    const pieces = fc.array(
      fc.string({
        unit: fc.constantFrom('a', 'b', '\n', '\t', '\r', '\u001b', '[', ']', '1', ';', 'm', '\u0007', '\u0000', '\\', '\u009b', 'é'),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(pieces, (chunks) => {
        const out = clean(...chunks);
        // eslint-disable-next-line no-control-regex
        return !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(out);
      }),
    );
  });

  test('property: text without special characters is unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\n', '\t', '€') })),
        (chunks) => clean(...chunks) === chunks.join(''),
      ),
    );
  });
});
