import { describe, expect, test } from 'vitest';
import { PipeCapture } from './output-capture.js';

const encoder = new TextEncoder();

describe('PipeCapture', () => {
  test('a large output keeps an exact head and tail without decoding its middle', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i} \u001b[32mok\u001b[0m é\n`);
    const lazy = new PipeCapture(4096, { decode: false });
    for (let i = 0; i < lines.length; i += 1000) lazy.append(encoder.encode(lines.slice(i, i + 1000).join('')));
    lazy.finish();
    const captured = await lazy.collect();
    // eslint-disable-next-line no-control-regex -- the colour sequences start with ESC
    const clean = lines.map((line) => line.replace(/\u001b\[\d+m/g, ''));
    const text = clean.join('');
    expect(captured.head).toBe(text.slice(0, 4096));
    expect(text.endsWith(captured.tail)).toBe(true);
    expect(captured.tail.length).toBe(4096);
    // The gap is estimated from the characters per byte seen while decoding the head.
    expect(Math.abs(captured.head.length + captured.tail.length + captured.omittedChars - text.length) / text.length).toBeLessThan(0.1);
  });

  test('one long line keeps its tail', async () => {
    const capture = new PipeCapture(1000, { decode: false });
    for (let i = 0; i < 100; i++) capture.append(encoder.encode('x'.repeat(999) + 'é'));
    capture.append(encoder.encode('end\n'));
    capture.finish();
    const captured = await capture.collect();
    expect(captured.head).toBe('x'.repeat(999) + 'é');
    expect(captured.tail.endsWith('xé'.repeat(1) + 'end\n')).toBe(true);
    expect(captured.tail.length).toBe(1000);
    expect(captured.tail).not.toContain('\uFFFD');
  });

  test('a window that fits is exact whether it decodes eagerly or lazily', async () => {
    const input = 'a\u001b[1mb\u001b[0m\r\nprogress 1\rprogress 2\nend';
    for (const decode of [true, false]) {
      const capture = new PipeCapture(64, { decode });
      for (const char of input) capture.append(encoder.encode(char));
      capture.finish();
      const captured = await capture.collect();
      expect(captured.head + captured.tail).toBe('ab\nprogress 2\nend');
    }
  });
});
