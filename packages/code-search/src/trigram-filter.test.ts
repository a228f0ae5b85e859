import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLiteralMatcher } from './literal-matcher.js';
import { buildTrigramFilter, mayContainTrigrams, trigramKeys } from './trigram-filter.js';

const alphabet = fc.constantFrom(...'aAbBzZkKsS_ 0\n\t/.ÉéßΣσς中İıſ\u212a'.split(''), '\u{1d518}');
const text = fc.array(alphabet, { maxLength: 400 }).map((units) => units.join(''));

describe('the trigram filter of a text', () => {
  it('never says no for a literal the matcher finds, under either case rule', () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.integer({ min: 3, max: 12 }),
        fc.array(fc.boolean(), { maxLength: 12 }),
        (source, at, length, flips) => {
          const start = source.length === 0 ? 0 : at % source.length;
          // A slice of the text with some letters' case flipped (ASCII or not), as a model may type it.
          const flip = (unit: string) => {
            const other = unit === unit.toLowerCase() ? unit.toUpperCase() : unit.toLowerCase();
            return other.length === unit.length ? other : unit;
          };
          const slice = [...source.slice(start, start + length)].map((unit, index) => (flips[index] ? flip(unit) : unit)).join('');
          if (slice.length < 3) return;
          const matcher = createLiteralMatcher(slice);
          if (matcher.find(source).length === 0) return;
          expect(mayContainTrigrams(buildTrigramFilter(source), trigramKeys(slice))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('says no for most literals a text lacks, and has no trigram for a literal under three characters', () => {
    const filter = buildTrigramFilter('export function createSourceFile(name: string) { return parse(name); }\n'.repeat(3));
    expect(mayContainTrigrams(filter, trigramKeys('createSourceFile'))).toBe(true);
    expect(mayContainTrigrams(filter, trigramKeys('CREATESOURCEFILE'))).toBe(true);
    const absent = ['NewReader', 'from_utf8', 'deprecated', 'Licensed under', 'TextIOWrapper', 'SAFETY:', 'Copyright 2009'];
    expect(absent.filter((literal) => mayContainTrigrams(filter, trigramKeys(literal)))).toEqual([]);
    expect(trigramKeys('ab')).toHaveLength(0);
    expect(trigramKeys('abab')).toHaveLength(2);
  });

  it('keeps about 1.25 bytes per distinct trigram, in a power of two', () => {
    const source = Array.from({ length: 2000 }, (_, index) => `line ${index} of ${index * 7919}`).join('\n');
    const distinct = trigramKeys(source).length;
    const bytes = buildTrigramFilter(source).length;
    expect(bytes & (bytes - 1)).toBe(0);
    expect(bytes).toBeGreaterThanOrEqual((distinct * 10) / 8);
    expect(bytes).toBeLessThan((distinct * 10) / 4);
  });
});
