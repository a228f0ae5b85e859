import { describe, expect, it } from 'vitest';
import { createLiteralMatcher } from './literal-matcher.js';
import { searchHints, type Unavailable } from './search-hints.js';

const none = (): Unavailable => ({ noGrammar: new Map(), large: 0, failedGrammars: new Set() });

describe('searchHints', () => {
  it('says nothing for a complete search with every match told apart', () => {
    expect(
      searchHints({ matcher: createLiteralMatcher('Widget'), maxResults: 20, truncated: false, wantSyntax: true, unavailable: none() }),
    ).toEqual([]);
  });

  it('words each hint exactly, in order', () => {
    const unavailable: Unavailable = {
      noGrammar: new Map([
        ['ruby', 1],
        ['php', 3],
      ]),
      large: 2,
      failedGrammars: new Set(['bash', 'c']),
    };
    expect(searchHints({ matcher: createLiteralMatcher('a-b'), maxResults: 5, truncated: true, wantSyntax: true, unavailable })).toEqual([
      'truncated: true — more results exist than the 5 shown; narrow path, file_types or result_types, or raise max_results (up to 100).',
      '"a-b" is not an identifier, so it has no definition or usage results; its matches are text.',
      'Definitions and usages are unavailable for ruby (1 file), php (3 files): no grammar for that language, so its matches are reported as text.',
      '2 matching files are over 2 MB and were searched as text only.',
      'The grammar for bash, c could not be loaded; matches in those files are reported as text.',
    ]);
    expect(
      searchHints({
        matcher: createLiteralMatcher('Widget'),
        maxResults: 5,
        truncated: false,
        wantSyntax: true,
        unavailable: { ...none(), large: 1 },
      }),
    ).toEqual(['1 matching file is over 2 MB and was searched as text only.']);
  });

  it('keeps to the truncation hint when neither definitions nor usages were asked for', () => {
    const unavailable: Unavailable = { noGrammar: new Map([['ruby', 1]]), large: 1, failedGrammars: new Set(['bash']) };
    expect(searchHints({ matcher: createLiteralMatcher('a-b'), maxResults: 7, truncated: true, wantSyntax: false, unavailable })).toEqual([
      'truncated: true — more results exist than the 7 shown; narrow path, file_types or result_types, or raise max_results (up to 100).',
    ]);
  });
});
