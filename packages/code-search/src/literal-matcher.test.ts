import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLiteralMatcher, isCaseSensitive } from './literal-matcher.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('createLiteralMatcher', () => {
  it('applies smart case', () => {
    expect(isCaseSensitive('toolprofile')).toBe(false);
    expect(isCaseSensitive('ToolProfile')).toBe(true);
    expect(isCaseSensitive('tool_profile_2')).toBe(false);
    const insensitive = createLiteralMatcher('toolprofile');
    expect(insensitive.find('ToolProfile toolprofile TOOLPROFILE')).toEqual([0, 12, 24]);
    const sensitive = createLiteralMatcher('ToolProfile');
    expect(sensitive.find('ToolProfile toolprofile TOOLPROFILE')).toEqual([0]);
    expect(sensitive.mayContain(bytes('x toolprofile'))).toBe(false);
    expect(insensitive.mayContain(bytes('x TOOLprofile'))).toBe(true);
  });

  it('treats the query literally (regex characters, non-overlapping) and handles non-ASCII text', () => {
    expect(createLiteralMatcher('a.b(').find('axb( a.b( a.b(')).toEqual([5, 10]);
    expect(createLiteralMatcher('aa').find('aaaa')).toEqual([0, 2]);
    const accented = createLiteralMatcher('größe');
    expect(accented.find('Größe und GRÖSSE und größe')).toEqual([0, 21]);
    expect(accented.mayContain(bytes('x GRÖßE'))).toBe(true);
    expect(createLiteralMatcher('café').mayContain(bytes('le Café'))).toBe(true);
  });

  it('knows which queries can be identifiers', () => {
    expect(createLiteralMatcher('ToolProfile').identifierLike).toBe(true);
    expect(createLiteralMatcher('$store').identifierLike).toBe(true);
    expect(createLiteralMatcher('foo bar').identifierLike).toBe(false);
    expect(createLiteralMatcher('a.b').identifierLike).toBe(false);
  });

  it('never rejects bytes whose text contains a match (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 6 }), fc.string(), fc.string(), (query, before, after) => {
        const matcher = createLiteralMatcher(query);
        const text = before + query + after;
        expect(matcher.find(text).length).toBeGreaterThan(0);
        expect(matcher.mayContain(bytes(text))).toBe(true);
      }),
    );
  });
});
