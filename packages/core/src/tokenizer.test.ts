import { describe, expect, it } from 'vitest';
import { approximateTokenizer, gptTokenizer } from './tokenizer.js';

describe('gptTokenizer', () => {
  it('counts special-token strings as plain text instead of throwing', () => {
    expect(gptTokenizer.count('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('cuts prefixes and suffixes within the budget', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
    const head = gptTokenizer.head(text, 17);
    const tail = gptTokenizer.tail(text, 17);
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(gptTokenizer.count(head)).toBeLessThanOrEqual(17);
    expect(gptTokenizer.count(tail)).toBeLessThanOrEqual(17);
    expect(head.length).toBeGreaterThan(30);
  });

  it('isWithin agrees with count', () => {
    const text = 'alpha beta gamma delta '.repeat(50);
    const count = gptTokenizer.count(text);
    expect(gptTokenizer.isWithin(text, count)).toBe(true);
    expect(gptTokenizer.isWithin(text, count - 1)).toBe(false);
  });
});

describe('approximateTokenizer', () => {
  it('counts one token per 4 UTF-8 bytes, rounded up', () => {
    expect(approximateTokenizer.count('')).toBe(0);
    expect(approximateTokenizer.count('abcd')).toBe(1);
    expect(approximateTokenizer.count('abcde')).toBe(2);
    expect(approximateTokenizer.count('é')).toBe(1);
    expect(approximateTokenizer.count('🙂🙂')).toBe(2);
  });

  it('never splits a surrogate pair when cutting', () => {
    const text = '🙂'.repeat(10);
    expect(approximateTokenizer.head(text, 3)).toBe('🙂🙂🙂');
    expect(approximateTokenizer.tail(text, 2)).toBe('🙂🙂');
  });
});
