import { describe, expect, it } from 'vitest';
import { budgetHeadTail, budgetOutput, estimateTokens, EXACT_COUNT_LIMIT } from './budget-output.js';
import { approximateTokenizer, gptTokenizer, type Tokenizer } from './tokenizer.js';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i} of the output with some words`).join('\n');

describe('budgetOutput', () => {
  it('returns text that fits unchanged with its exact count', () => {
    const out = budgetOutput('hello world\n', 100, gptTokenizer);
    expect(out).toEqual({
      text: 'hello world\n',
      truncated: false,
      originalTokens: gptTokenizer.count('hello world\n'),
      estimated: false,
      omittedTokens: 0,
    });
  });

  it.each([1, 2, 5, 20, 50, 200, 1000])('never exceeds a budget of %i tokens (o200k)', (budget) => {
    const text = lines(2000);
    const out = budgetOutput(text, budget, gptTokenizer);
    expect(out.truncated).toBe(true);
    expect(gptTokenizer.count(out.text)).toBeLessThanOrEqual(budget);
  });

  it.each([1, 7, 64, 500])('never exceeds a budget of %i tokens (approximate)', (budget) => {
    const out = budgetOutput(lines(3000), budget, approximateTokenizer);
    expect(approximateTokenizer.count(out.text)).toBeLessThanOrEqual(budget);
  });

  it('keeps head and tail around a marker naming the omitted tokens', () => {
    const text = lines(1000);
    const out = budgetOutput(text, 200, gptTokenizer);
    expect(out.text.startsWith('line 0 of the output')).toBe(true);
    expect(out.text.endsWith('line 999 of the output with some words')).toBe(true);
    const marker = out.text.match(/…(\d+) tokens truncated…/);
    expect(marker).not.toBeNull();
    expect(Number(marker![1])).toBe(out.omittedTokens);
    expect(out.originalTokens).toBe(gptTokenizer.count(text));
    expect(out.omittedTokens).toBeGreaterThan(out.originalTokens - 200);
  });

  it('puts a note such as the spool path inside the marker', () => {
    const out = budgetOutput(lines(500), 100, gptTokenizer, { note: 'Full output: /tmp/x.log' });
    expect(out.text).toMatch(/tokens truncated… Full output: \/tmp\/x\.log\n/);
  });

  it('estimates instead of tokenizing all of a 10 MB string, and says so', () => {
    const text = 'abcdefghij'.repeat(1_000_000);
    let charactersTokenized = 0;
    const counting: Tokenizer = {
      name: 'counting',
      count: (t) => ((charactersTokenized += t.length), gptTokenizer.count(t)),
      isWithin: (t, limit) => ((charactersTokenized += Math.min(t.length, limit * 64)), gptTokenizer.isWithin(t, limit)),
      head: (t, n) => gptTokenizer.head(t, n),
      tail: (t, n) => gptTokenizer.tail(t, n),
    };
    const out = budgetOutput(text, 1000, counting);
    expect(out.estimated).toBe(true);
    expect(out.text).toMatch(/…~\d+ tokens truncated…/);
    expect(gptTokenizer.count(out.text)).toBeLessThanOrEqual(1000);
    expect(Math.abs(out.originalTokens - gptTokenizer.count(text.slice(0, 1_000_000)) * 10) / out.originalTokens).toBeLessThan(0.02);
    expect(charactersTokenized).toBeLessThan(text.length / 10);
  });

  it('keeps multi-byte characters whole at the cuts', () => {
    const text = '日本語のテキスト🙂\n'.repeat(3000);
    const out = budgetOutput(text, 100, gptTokenizer);
    expect(out.text).not.toContain('\uFFFD');
    expect(gptTokenizer.count(out.text)).toBeLessThanOrEqual(100);
  });
});

describe('estimateTokens', () => {
  it('counts exactly below the limit and extrapolates above it', () => {
    expect(estimateTokens('hello', gptTokenizer)).toEqual({ tokens: gptTokenizer.count('hello'), estimated: false });
    const big = 'word '.repeat(EXACT_COUNT_LIMIT / 5 + 10);
    const estimate = estimateTokens(big, gptTokenizer);
    expect(estimate.estimated).toBe(true);
    const exact = gptTokenizer.count(big);
    expect(Math.abs(estimate.tokens - exact) / exact).toBeLessThan(0.05);
  });
});

describe('budgetHeadTail', () => {
  const note = 'Full output: /tmp/toolhost-spool-11752-5i1yQx/0001-exec-1.log';

  it('previews a text whose middle is not in memory: head, marker with the gap counted, tail', () => {
    const head = lines(100);
    const tail = lines(100);
    const out = budgetHeadTail({ head, tail, totalTokens: 50_000, estimated: true }, 300, gptTokenizer, note);
    expect(gptTokenizer.count(out.text)).toBeLessThanOrEqual(300);
    expect(out.text.startsWith('line 0 of the output')).toBe(true);
    expect(out.text.endsWith('line 99 of the output with some words')).toBe(true);
    expect(out.text).toContain(`…~${out.omittedTokens} tokens truncated… ${note}\n`);
    expect(out.omittedTokens).toBeGreaterThan(50_000 - 300);
    expect(out.noteShown).toBe(true);
  });

  it('without a gap takes the tail from the end of the head text, as budgetOutput does', () => {
    const text = lines(1000);
    const out = budgetHeadTail({ head: text, tail: '', totalTokens: gptTokenizer.count(text), estimated: false }, 200, gptTokenizer);
    expect(out.text).toBe(budgetOutput(text, 200, gptTokenizer).text);
    expect(out.text.endsWith('line 999 of the output with some words')).toBe(true);
  });

  it.each([0, 1, 5, 10, 20, 25, 30, 40, 60, 100])('never cuts the note, never exceeds a budget of %i tokens', (budget) => {
    for (const tokenizer of [gptTokenizer, approximateTokenizer]) {
      const out = budgetHeadTail({ head: lines(500), tail: lines(500), totalTokens: 90_000, estimated: true }, budget, tokenizer, note);
      expect(tokenizer.count(out.text)).toBeLessThanOrEqual(budget);
      expect(out.text.includes(note)).toBe(out.noteShown);
      if (!out.noteShown) expect(out.text).not.toContain('Full output');
    }
  });

  it('shows the marker with the note alone when head and tail leave it no room', () => {
    const markerOnly = `\n…~90000 tokens truncated… ${note}\n`;
    const budget = gptTokenizer.count(markerOnly) + 1;
    const out = budgetHeadTail({ head: lines(500), tail: lines(500), totalTokens: 90_000, estimated: true }, budget, gptTokenizer, note);
    expect(out.text).toBe(markerOnly);
    expect(out.noteShown).toBe(true);
  });
});
