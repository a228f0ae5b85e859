import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyOccurrences } from './classify-occurrences.js';
import { createSyntaxParser } from './grammar-loader.js';
import { extractIdentifiers, foldCase, foldedWordTokens } from './identifier-extractor.js';
import { languageOfPath } from './language-table.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { SYNTAX_SPECS } from './syntax-spec.js';

const here = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return languageOfPath(path)?.grammar ? [path] : [];
  });
}

describe('extractIdentifiers', () => {
  const parser = createSyntaxParser();
  // The fixture covers every grammar; this package's own sources add real TypeScript.
  const files = [...sourceFiles(join(here, '__fixtures__')), ...sourceFiles(here).filter((path) => !path.includes('__fixtures__'))];

  it('classifies every occurrence of every word exactly as the per-query classification does', async () => {
    let compared = 0;
    for (const file of files) {
      const grammar = languageOfPath(file)!.grammar!;
      const text = readFileSync(file, 'utf8');
      const tree = (await parser.parse(grammar, text))!;
      const found = extractIdentifiers(SYNTAX_SPECS[grammar], tree, text);
      for (const token of foldedWordTokens(text)) {
        // Every spelling of the token in the file, searched as a query with that exact spelling.
        for (const spelling of new Set(text.match(new RegExp(`(?<![\\w\\u0080-\\uffff])[\\w\\u0080-\\uffff]+(?![\\w\\u0080-\\uffff])`, 'g'))?.filter((word) => foldCase(word) === token))) {
          const matcher = createLiteralMatcher(spelling);
          const starts = matcher.find(text);
          const expected = classifyOccurrences(SYNTAX_SPECS[grammar], tree, starts, spelling.length);
          // Smart case, as the index answers: exact names for a case-sensitive query, equal folds otherwise.
          const same = (name: string) => (matcher.caseSensitive ? name === spelling : foldCase(name) === foldCase(spelling));
          const byStart = new Map(found.filter((item) => same(item.name)).map((item) => [item.start, item.definition]));
          const actual = starts.map((start) => (byStart.has(start) ? (byStart.get(start) ? 'definition' : 'usage') : 'text'));
          expect(actual, `${relative(here, file)}: ${spelling}`).toEqual(expected);
          compared += starts.length;
        }
      }
      tree.delete();
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('foldCase', () => {
  it('treats two spellings as equal exactly when a case-insensitive literal matches one against the other', () => {
    const pairs: Array<[string, string]> = [
      ['gadget', 'GADGET'],
      ['straße', 'STRASSE'],
      ['σ', 'ς'],
      ['k', '\u212a'],
      ['Ölfeld', 'öLFELD'],
    ];
    for (const [a, b] of pairs) expect(foldCase(a) === foldCase(b), `${a} ~ ${b}`).toBe(createLiteralMatcher(a.toLowerCase()).find(b).length === 1 && a.length === b.length);
  });
});
