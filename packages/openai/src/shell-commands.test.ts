import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { answerResponsesCalls, createAgentsShell, limitOutputLength } from './index.js';

const linux = { platform: 'linux', env: {} };
const emoji = '😀'.repeat(40);
// Astral letters and emoji, a skin-tone modifier, a ZWJ family, a flag, a combining accent, CJK and plain ASCII.
const mixed = 'a😀b👍🏽c—é\u0301日本語 👨‍👩‍👧 🇫🇷 𝒳𝒴 tail\tend';
const loneSurrogate = /[\uD800-\uDFFF]/u;
const marker = /^([^]*)\n…(\d+) characters truncated…\n([^]*)$/;

function codePoints(text: string): number {
  return Array.from(text).length;
}

describe('limitOutputLength', () => {
  it('cuts 40 emoji at 7 into 4 + 3 whole emoji', () => {
    expect(limitOutputLength(emoji, 7)).toBe('😀😀😀😀\n…33 characters truncated…\n😀😀😀');
  });

  for (const [name, text] of [
    ['emoji', emoji],
    ['mixed text', mixed],
  ] as const) {
    it(`never splits a surrogate pair in ${name}, at every cut length`, () => {
      const length = codePoints(text);
      for (let limit = 0; limit <= length + 1; limit++) {
        const limited = limitOutputLength(text, limit);
        expect(loneSurrogate.test(limited), `limit ${limit}: ${JSON.stringify(limited)}`).toBe(false);
        if (limit >= length) {
          expect(limited).toBe(text);
          continue;
        }
        const parts = marker.exec(limited);
        expect(parts, `limit ${limit}`).not.toBeNull();
        const [, head, omitted, tail] = parts as RegExpExecArray;
        expect([codePoints(head), Number(omitted), codePoints(tail)]).toEqual([
          Math.ceil(limit / 2),
          length - limit,
          Math.floor(limit / 2),
        ]);
        expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
      }
    });
  }

  it('counts characters, not UTF-16 units: 40 emoji (80 units) fit a limit of 40', () => {
    expect(limitOutputLength(emoji, 40)).toBe(emoji);
    expect(limitOutputLength(emoji, 39)).toBe(`${'😀'.repeat(20)}\n…1 characters truncated…\n${'😀'.repeat(19)}`);
  });

  it('leaves the text alone without a usable limit', () => {
    for (const limit of [null, undefined, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(limitOutputLength(emoji, limit)).toBe(emoji);
  });
});

describe('max_output_length on the shell paths', () => {
  const host = () => createFakeToolHost({ environment: linux, commands: [{ match: 'emoji', output: emoji }] });

  it('shell_call_output keeps whole emoji', async () => {
    const [output] = await answerResponsesCalls(
      [
        {
          type: 'shell_call',
          id: 'sh',
          call_id: 'c_emoji',
          status: 'completed',
          environment: null,
          action: { commands: ['emoji'], timeout_ms: null, max_output_length: 7 },
        },
      ],
      host(),
    );
    expect(output).toEqual({
      type: 'shell_call_output',
      call_id: 'c_emoji',
      max_output_length: 7,
      output: [{ stdout: '😀😀😀😀\n…33 characters truncated…\n😀😀😀', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
    });
  });

  it('the Agents SDK Shell keeps whole emoji', async () => {
    expect(await createAgentsShell(host()).run({ commands: ['emoji'], maxOutputLength: 7 })).toEqual({
      output: [{ stdout: '😀😀😀😀\n…33 characters truncated…\n😀😀😀', stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
      maxOutputLength: 7,
    });
  });
});
