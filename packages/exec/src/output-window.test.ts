import { describe, expect, test } from 'vitest';
import { OutputWindow } from './output-window.js';

describe('OutputWindow', () => {
  test('keeps everything while it fits', () => {
    const window = new OutputWindow(10);
    window.append('hello ');
    window.append('world');
    const captured = window.captured();
    expect(captured.head + captured.tail).toBe('hello world');
    expect(captured.omittedChars).toBe(0);
  });

  test('keeps a bounded head and tail and counts the gap', () => {
    const window = new OutputWindow(100);
    let text = '';
    for (let i = 0; i < 10_000; i++) {
      const piece = `${i}\n`;
      text += piece;
      window.append(piece);
    }
    const captured = window.captured();
    expect(captured.head).toBe(text.slice(0, 100));
    expect(captured.tail).toBe(text.slice(text.length - 100));
    expect(captured.omittedChars).toBe(text.length - 200);
  });

  test('a single huge append keeps only its ends', () => {
    const window = new OutputWindow(1000);
    window.append('a'.repeat(1000) + 'b'.repeat(1_000_000) + 'c'.repeat(1000));
    const captured = window.captured();
    expect(captured.head).toBe('a'.repeat(1000));
    expect(captured.tail).toBe('c'.repeat(1000));
    expect(captured.omittedChars).toBe(1_000_000);
  });

  test('never splits a surrogate pair at the head or tail edge', () => {
    const window = new OutputWindow(3);
    window.append('ab😀');
    window.append('x'.repeat(10));
    window.append('😀yz');
    const captured = window.captured();
    expect(captured.head).toBe('ab');
    expect(captured.tail).toBe('yz');
    expect(captured.head.length + captured.tail.length + captured.omittedChars).toBe('ab😀'.length + 10 + '😀yz'.length);
  });
});

describe('OutputWindow.skip', () => {
  test('counts skipped text as omitted, keeps the head final and restarts the tail after the gap', () => {
    const window = new OutputWindow(10);
    window.append('0123456789abc');
    expect(window.headFull).toBe(true);
    window.skip(1000);
    window.append('xyz');
    const captured = window.captured();
    expect(captured).toEqual({ head: '0123456789', tail: 'xyz', omittedChars: 3 + 1000 });
  });
});
