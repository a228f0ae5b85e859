import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  MAX_OUTPUT_TOKENS_FLOOR,
  MAX_OUTPUT_TOKENS_MESSAGE,
  maxOutputTokensSchema,
  preflightMaxOutputTokens,
} from './max-output-tokens.js';

describe('preflightMaxOutputTokens', () => {
  it('defaults to 10000 when absent', () => {
    expect(preflightMaxOutputTokens({})).toEqual({ ok: true, value: DEFAULT_MAX_OUTPUT_TOKENS });
    expect(DEFAULT_MAX_OUTPUT_TOKENS).toBe(10_000);
  });

  it.each([100, 101, 10_000, 50_000])('accepts %s', (value) => {
    expect(preflightMaxOutputTokens({ max_output_tokens: value })).toEqual({ ok: true, value });
  });

  it.each([1, 2, 60, 99])('accepts %s and budgets 100, room for the exec header', (value) => {
    expect(MAX_OUTPUT_TOKENS_FLOOR).toBe(100);
    expect(preflightMaxOutputTokens({ max_output_tokens: value })).toEqual({ ok: true, value: MAX_OUTPUT_TOKENS_FLOOR });
  });

  it('says so in the schema every tool shows', () => {
    expect(maxOutputTokensSchema.description).toBe(
      'Output budget for the response in tokens (default 10000, 1 to 50000; under 100 counts as 100). The complete output is spooled; only the preview is limited.',
    );
    expect(maxOutputTokensSchema.safeParse(1).success).toBe(true);
    expect(maxOutputTokensSchema.safeParse(0).success).toBe(false);
  });

  it.each([
    ['"100"', '100'],
    ['1.5', 1.5],
    ['0', 0],
    ['-1', -1],
    ['50001', 50_001],
    ['null', null],
    ['true', true],
    ['NaN', Number.NaN],
    ['Infinity', Infinity],
    ['[]', []],
    ['{}', {}],
  ])('rejects %s with the exact message', (_label, value) => {
    expect(MAX_OUTPUT_TOKENS_MESSAGE).toBe('max_output_tokens must be an integer between 1 and 50000');
    expect(preflightMaxOutputTokens({ max_output_tokens: value })).toEqual({ ok: false, message: MAX_OUTPUT_TOKENS_MESSAGE });
  });
});
