import { describe, expect, test } from 'vitest';
import * as fc from 'fast-check';
import { approximateTokenizer, gptTokenizer, MAX_OUTPUT_TOKENS_FLOOR } from '@toolhost/core';
import { buildExecResponse, windowTokenCount } from './exec-response.js';
import type { CapturedText } from './output-window.js';

const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `row ${from + i}\n`).join('');

describe('buildExecResponse', () => {
  test('small output is shown whole with the Codex header', () => {
    const result = buildExecResponse({
      wallTimeMs: 12.34,
      sessionId: 7,
      captured: { head: 'hello\n', tail: '', omittedChars: 0 },
      tokenizer: gptTokenizer,
      maxOutputTokens: 10_000,
      spoolPath: () => {
        throw new Error('the spool is not needed');
      },
    });
    expect(result.output).toMatch(
      /^Chunk ID: [0-9a-f]{6}\nWall time: 0\.0123 seconds\nProcess running with session ID 7\nOriginal token count: 2\nOutput:\nhello\n$/,
    );
    expect(result.data).toEqual({ session_id: 7, wall_time_ms: 12, original_token_count: 2, truncated: false });
  });

  test('notes go before Output:', () => {
    const result = buildExecResponse({
      wallTimeMs: 1,
      exitCode: 0,
      notes: ['Note: session 3 was pruned.'],
      captured: { head: 'x\n', tail: '', omittedChars: 0 },
      tokenizer: approximateTokenizer,
      maxOutputTokens: 1000,
      spoolPath: () => undefined,
    });
    expect(result.output).toContain('Original token count: 1\nNote: session 3 was pruned.\nOutput:\nx\n');
  });

  test('a window with a gap keeps its head and tail, estimates the original count and names the spool', () => {
    const captured: CapturedText = { head: lines(0, 5000), tail: lines(95_000, 100_000), omittedChars: lines(5000, 95_000).length };
    const result = buildExecResponse({
      wallTimeMs: 1,
      exitCode: 0,
      captured,
      tokenizer: gptTokenizer,
      maxOutputTokens: 800,
      spoolPath: () => '/spool/exec-1.log',
    });
    expect(gptTokenizer.count(result.output)).toBeLessThanOrEqual(800);
    const preview = result.output.slice(result.output.indexOf('Output:\n') + 8);
    expect(preview.startsWith('row 0\nrow 1\n')).toBe(true);
    expect(preview.endsWith('row 99999\n')).toBe(true);
    expect(preview).toMatch(/…~\d+ tokens truncated… Full output: \/spool\/exec-1\.log/);
    const exact = gptTokenizer.count(lines(0, 100_000));
    expect(Math.abs((result.data?.original_token_count as number) - exact) / exact).toBeLessThan(0.1);
    expect(result.data).toMatchObject({ truncated: true, spool_path: '/spool/exec-1.log' });
  });

  test('property: the whole response never exceeds the budget once the header fits', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '😀', '1', '{', 'xyz'), maxLength: 3000 });
    fc.assert(
      fc.property(text, text, fc.nat(50_000), fc.integer({ min: 40, max: 3000 }), fc.boolean(), (head, tail, gap, budget, exact) => {
        const tokenizer = exact ? gptTokenizer : approximateTokenizer;
        const captured: CapturedText = { head, tail, omittedChars: gap };
        const result = buildExecResponse({
          wallTimeMs: 5,
          sessionId: 1,
          captured,
          tokenizer,
          maxOutputTokens: budget,
          spoolPath: () => '/s/p.log',
        });
        return tokenizer.count(result.output) <= budget;
      }),
      { numRuns: 200 },
    );
  });

  test('the spool path is shown whole or not at all, and the process state goes first when the header does not fit', () => {
    const spool = '/tmp/toolhost-spool-11752-5i1yQx/0001-exec-1.log';
    const gap: CapturedText = { head: lines(0, 5000), tail: lines(195_000, 200_000), omittedChars: lines(5000, 195_000).length };
    const complete: CapturedText = { head: lines(0, 3000), tail: '', omittedChars: 0 };
    for (const captured of [gap, complete]) {
      for (let budget = 1; budget <= 120; budget++) {
        const result = buildExecResponse({
          wallTimeMs: 37,
          exitCode: 0,
          captured,
          tokenizer: gptTokenizer,
          maxOutputTokens: budget,
          spoolPath: () => spool,
        });
        const where = `budget ${budget}, gap ${captured.omittedChars > 0}: ${JSON.stringify(result.output)}`;
        expect(gptTokenizer.count(result.output), where).toBeLessThanOrEqual(budget);
        expect(result.data?.spool_path).toBe(spool);
        if (result.output.includes('Full output')) expect(result.output, where).toContain(`Full output: ${spool}`);
        else expect(result.output, where).not.toContain('/tmp/');
        // Whole lines only: every line is one the full response could have.
        for (const line of result.output.split('\n'))
          expect(line, where).not.toMatch(/^(Chunk ID: [0-9a-f]{0,5}|Wall time: [\d.]*|Process exited with co?d?e?)$/);
        if (budget >= 9) expect(result.output, where).toContain('Process exited with code 0');
        // However small the budget, the exit status and the fact that output was left out come through.
        if (budget >= 2)
          expect(result.output, where).toMatch(
            /^(.*\n)*(Process exited with code 0|exit 0|0)(, output cut|…|\n.*Full output: .*)?(\n.*)*$/,
          );
        if (budget >= 2) expect(result.output, where).toMatch(/output cut|…|Full output/);
        if (budget === 1) expect(result.output, where).toBe('0');
        if (budget >= 40) expect(result.output, where).toContain(`Full output: ${spool}`);
      }
    }
    const tiny = buildExecResponse({
      wallTimeMs: 37,
      exitCode: 0,
      captured: gap,
      tokenizer: gptTokenizer,
      maxOutputTokens: 10,
      spoolPath: () => spool,
    });
    expect(tiny.output).toBe('Process exited with code 0, output cut');
    const two = buildExecResponse({
      wallTimeMs: 37,
      exitCode: 3,
      captured: gap,
      tokenizer: gptTokenizer,
      maxOutputTokens: 2,
      spoolPath: () => spool,
    });
    expect(two.output).toBe('3…');
    const four = buildExecResponse({
      wallTimeMs: 37,
      exitCode: 3,
      captured: gap,
      tokenizer: gptTokenizer,
      maxOutputTokens: 4,
      spoolPath: () => spool,
    });
    expect(four.output).toBe('exit 3…');
    const running = buildExecResponse({
      wallTimeMs: 37,
      sessionId: 4,
      captured: gap,
      tokenizer: gptTokenizer,
      maxOutputTokens: 40,
      spoolPath: () => spool,
    });
    expect(running.output).toBe(`Process running with session ID 4\nFull output: ${spool}`);
  });

  test('at the budget floor every answer keeps its exit code or session and the whole spool path', () => {
    const big: CapturedText = { head: lines(0, 20_000), tail: '', omittedChars: 0 };
    const at = (state: { exitCode: number } | { sessionId: number }, spool: string) =>
      buildExecResponse({
        wallTimeMs: 12_345.6,
        ...state,
        chunkId: '3f2a1b',
        captured: big,
        tokenizer: gptTokenizer,
        maxOutputTokens: MAX_OUTPUT_TOKENS_FLOOR,
        spoolPath: () => spool,
      }).output;
    const linux = '/tmp/toolhost-spool-29648-lqn0l8h3/0004-exec-4.log';
    expect(at({ exitCode: 3 }, linux)).toBe(
      `Chunk ID: 3f2a1b\nWall time: 12.3456 seconds\nProcess exited with code 3\nOriginal token count: ~95713\nOutput:\nrow 0\nrow 1\nrow 2\nrow 3\n\n…~95691 tokens truncated… Full output: ${linux}\nrow 19998\nrow 19999\n`,
    );
    expect(at({ sessionId: 2_147_483_647 }, linux)).toBe(
      `Chunk ID: 3f2a1b\nWall time: 12.3456 seconds\nProcess running with session ID 2147483647\nOriginal token count: ~95713\nOutput:\nrow 0\nrow 1\nrow 2\n\n…~95694 tokens truncated… Full output: ${linux}\nrow 19998\nrow 19999\n`,
    );
    // The longest default temp folders: macOS's per-user one, and Windows'.
    const macos = '/var/folders/7x/k2n3m4p5q6r7s8t9v0w1x2y3z40000gn/T/toolhost-spool-29648-lqn0l8h3/0004-exec-4.log';
    const windows = 'C:\\Users\\someone\\AppData\\Local\\Temp\\toolhost-spool-29648-lqn0l8h3\\0004-exec-4.log';
    for (const spool of [macos, windows]) {
      for (const [state, line] of [
        [{ exitCode: 3 }, 'Process exited with code 3'],
        [{ sessionId: 2_147_483_647 }, 'Process running with session ID 2147483647'],
      ] as const) {
        const output = at(state, spool);
        expect(gptTokenizer.count(output)).toBeLessThanOrEqual(MAX_OUTPUT_TOKENS_FLOOR);
        expect(output.split('\n')).toContain(line);
        expect(output).toContain(`Full output: ${spool}`);
      }
    }
  });

  test('a large window that is cut gets an estimated count, marked ~N; one shown whole is counted exactly', () => {
    const big: CapturedText = { head: lines(0, 20_000), tail: '', omittedChars: 0 };
    const cut = buildExecResponse({
      wallTimeMs: 5,
      exitCode: 0,
      captured: big,
      tokenizer: gptTokenizer,
      maxOutputTokens: 300,
      spoolPath: () => '/tmp/x.log',
    });
    const shown = Number(/Original token count: ~(\d+)\n/.exec(cut.output)?.[1]);
    const exact = gptTokenizer.count(big.head);
    expect(Math.abs(shown - exact) / exact).toBeLessThan(0.1);
    expect(cut.data?.original_token_count).toBe(shown);
    const whole: CapturedText = { head: lines(0, 6_000), tail: '', omittedChars: 0 };
    const fits = buildExecResponse({
      wallTimeMs: 5,
      exitCode: 0,
      captured: whole,
      tokenizer: gptTokenizer,
      maxOutputTokens: 50_000,
      spoolPath: () => undefined,
    });
    expect(fits.output).toContain(`Original token count: ${gptTokenizer.count(whole.head)}\nOutput:\n`);
  });

  test('windowTokenCount is exact without a gap', () => {
    expect(windowTokenCount({ head: 'hello world\n', tail: 'bye\n', omittedChars: 0 }, gptTokenizer)).toBe(
      gptTokenizer.count('hello world\nbye\n'),
    );
  });
});
