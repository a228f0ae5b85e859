import { describe, expect, test } from 'vitest';
import * as fc from 'fast-check';
import { TerminalCapture } from './output-capture.js';
import type { CapturedText } from './output-window.js';
import { renderPlainTerminalText } from './plain-terminal-text.js';
import { TerminalScreen } from './terminal-screen.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

/** Feeds `pieces` (each a list of chunks followed by a read) and returns the text of every read. */
async function reads(
  capture: { append(chunk: Uint8Array): unknown; collect(): Promise<CapturedText> },
  pieces: string[][],
): Promise<string[]> {
  const texts: string[] = [];
  for (const chunks of pieces) {
    for (const chunk of chunks) capture.append(bytes(chunk));
    const captured = await capture.collect();
    texts.push(captured.omittedChars === 0 ? captured.head + captured.tail : `${captured.head}[…${captured.omittedChars}]${captured.tail}`);
  }
  return texts;
}

/** The emulator alone: what the capture must match. */
function emulatorOnly(rows: number, cols: number) {
  const screen = new TerminalScreen({ rows, cols });
  return { append: (chunk: Uint8Array) => screen.write(chunk), collect: () => screen.collect(), dispose: () => screen.dispose() };
}

describe('renderPlainTerminalText', () => {
  test('renders printable ASCII and CR LF, refuses anything else', () => {
    expect(renderPlainTerminalText(bytes('a  \r\nb\r\n'), false)).toEqual({ text: 'a  \nb\n', pendingCarriageReturn: false });
    expect(renderPlainTerminalText(bytes('abc\r'), false)).toEqual({ text: 'abc', pendingCarriageReturn: true });
    expect(renderPlainTerminalText(bytes('\nx'), true)).toEqual({ text: '\nx', pendingCarriageReturn: false });
    expect(renderPlainTerminalText(bytes('x'), true)).toBeUndefined();
    for (const other of ['a\rb', 'a\nb', '\u001b[31mred', 'tab\there', 'bell\u0007', 'caf\u00e9'])
      expect(renderPlainTerminalText(bytes(other), false)).toBeUndefined();
  });
});

describe('TerminalCapture', () => {
  // Output mixing plain lines with progress bars, colours, cursor movement and erasing, split anywhere.
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.stringMatching(/^[ -~]{0,100}$/).map((line) => `${line}\r\n`) },
    { weight: 2, arbitrary: fc.stringMatching(/^[a-z ]{0,30}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '\r',
        '  ',
        '50%\r100%\r\n',
        '\u001b[31mred\u001b[0m\r\n',
        '\u001b[1A\u001b[2K',
        '\u001b[3D',
        'x\u0008y\r\n',
        'ab\u001b[K\r\n',
        '\ttab\r\n',
        'caf\u00c3\u00a9\r\n',
      ),
    },
  );
  const script = fc.array(
    fc.array(
      fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
      { maxLength: 5 },
    ),
    { minLength: 1, maxLength: 6 },
  );
  const split = (text: string, cuts: number[]) => {
    const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
    const chunks: string[] = [];
    let start = 0;
    for (const point of points) {
      chunks.push(text.slice(start, point));
      start = point;
    }
    chunks.push(text.slice(start));
    return chunks.filter((chunk) => chunk.length > 0);
  };

  test('renders exactly what the emulator alone renders, read after read, however the output is split', async () => {
    await fc.assert(
      fc.asyncProperty(script, fc.array(fc.nat(), { maxLength: 8 }), fc.constantFrom(20, 80), async (windows, cuts, cols) => {
        const pieces = windows.map((chunks) => chunks.flatMap((chunk) => split(chunk, cuts)));
        const expected = emulatorOnly(24, cols);
        const capture = new TerminalCapture({ rows: 24, cols, decode: false });
        try {
          expect(await reads(capture, pieces)).toEqual(await reads(expected, pieces));
        } finally {
          expected.dispose();
          capture.dispose();
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  test('plain output never starts the emulator', async () => {
    const capture = new TerminalCapture({ rows: 24, cols: 80, decode: false });
    capture.append(bytes(Array.from({ length: 5000 }, (_, i) => `${i + 1}\r\n`).join('')));
    const captured = await capture.collect();
    expect(captured.head + captured.tail).toBe(Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join(''));
    expect((capture as unknown as { screen?: unknown }).screen).toBeUndefined();
    capture.dispose();
  });
});
