import { describe, expect, it } from 'vitest';
import { expandTabs, seenText, unitAt } from './expanded-text.js';

describe('expandTabs', () => {
  it("matches Python's str.expandtabs(): 8 columns, LF and CR restart the count, an astral character is one column", () => {
    // Expected values printed by CPython 3: repr(s.expandtabs()).
    expect(expandTabs('a\tb')).toBe('a       b');
    expect(expandTabs('\t')).toBe('        ');
    expect(expandTabs('ab\r\tc')).toBe('ab\r        c');
    expect(expandTabs('\u{1F600}\tx')).toBe('\u{1F600}       x');
    expect(expandTabs('x\n\ty\t\tz')).toBe('x\n        y               z');
    expect(expandTabs('12345678\t9')).toBe('12345678        9');
  });
});

describe('unitAt', () => {
  it('maps a character of the seen text (CRLF as LF, tabs expanded) to the raw characters that make it', () => {
    const raw = 'a\r\n\tb\t\u{1F600}c';
    expect(seenText(raw, true)).toBe('a\n        b       \u{1F600}c');
    expect(seenText(raw, false)).toBe('a\n\tb\t\u{1F600}c');
    expect(unitAt(raw, true, 1)).toEqual({ rawStart: 1, rawEnd: 3, seenStart: 1, seenEnd: 2 });
    expect(unitAt(raw, true, 5)).toEqual({ rawStart: 3, rawEnd: 4, seenStart: 2, seenEnd: 10 });
    expect(unitAt(raw, true, 10)).toEqual({ rawStart: 4, rawEnd: 5, seenStart: 10, seenEnd: 11 });
    expect(unitAt(raw, true, 18)).toEqual({ rawStart: 6, rawEnd: 8, seenStart: 18, seenEnd: 20 });
    expect(unitAt(raw, false, 3)).toEqual({ rawStart: 4, rawEnd: 5, seenStart: 3, seenEnd: 4 });
  });
});
