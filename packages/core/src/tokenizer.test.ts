import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { approximateTokenizer, gptTokenizer } from './tokenizer.js';

const plainText = { disallowedSpecial: new Set<string>() } as never;

/** Text made of the pieces that meet at the pre-tokenizer's edges: line breaks, runs of spaces, slashes, digits, letters, accents, CJK and astral characters. */
const edgeText = fc
  .array(
    fc.constantFrom(
      '\n',
      '\r\n',
      '\n\n',
      ' ',
      '   ',
      '\t',
      '/',
      '//',
      '.',
      ')\n/',
      '12345',
      '7',
      'foo',
      'Bar',
      "it's",
      'ÉCOLE',
      'naïve',
      '鬱',
      '𝔘',
      '<|endoftext|>',
      '\u2028',
      '-->',
      '\u00a0',
    ),
    { maxLength: 200 },
  )
  .map((parts) => parts.join(''));

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

  it('counts exactly what gpt-tokenizer counts for the whole text, piece by piece', () => {
    fc.assert(
      fc.property(
        fc.oneof(edgeText, fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })),
        (text) => {
          expect(gptTokenizer.count(text)).toBe(countTokens(text, plainText));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts source files and a long output exactly', () => {
    const folder = import.meta.dirname;
    const sources = readdirSync(folder)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => readFileSync(join(folder, name), 'utf8'));
    const text = sources.join('\n') + Array.from({ length: 5000 }, (_, index) => `line ${index}: /usr/lib/x${index}.so\n`).join('');
    expect(gptTokenizer.count(text)).toBe(countTokens(text, plainText));
    expect(gptTokenizer.isWithin(text, countTokens(text, plainText))).toBe(true);
    expect(gptTokenizer.isWithin(text, countTokens(text, plainText) - 1)).toBe(false);
  });

  it('never takes a short text for one within a limit it exceeds (characters that need several tokens each)', () => {
    const text = '𝔘𠜎'.repeat(50) + '鬱'.repeat(50);
    const count = countTokens(text, plainText);
    expect(count).toBeGreaterThan(text.length);
    expect(gptTokenizer.isWithin(text, text.length)).toBe(false);
    expect(gptTokenizer.isWithin(text, count)).toBe(true);
  });

  it('counts an unbroken run of 100,000 letters in bounded time', () => {
    expect(gptTokenizer.count('a'.repeat(100_000))).toBeGreaterThan(10_000);
  });

  it('never counts an unbroken run of over 1,024 characters below its true count', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzACGT'), minLength: 1025, maxLength: 3000 }), (run) => {
        const exact = countTokens(run, plainText);
        expect(gptTokenizer.count(run)).toBeGreaterThanOrEqual(exact);
        expect(gptTokenizer.isWithin(run, exact - 1)).toBe(false);
      }),
      { numRuns: 150 },
    );
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
