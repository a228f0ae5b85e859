import type { LiteralMatcher } from './literal-matcher.js';

/** Why some matches of a search could not be told apart as definitions and usages. */
export interface Unavailable {
  /** Files of a code language without a grammar, by language name. */
  noGrammar: Map<string, number>;
  /** Files over 2 MB, searched as text only. */
  large: number;
  /** Grammars that could not be loaded. */
  failedGrammars: Set<string>;
}

/** What the hints of one search are made from. */
export interface HintFacts {
  readonly matcher: LiteralMatcher;
  readonly maxResults: number;
  readonly truncated: boolean;
  /** True when definitions or usages were asked for. */
  readonly wantSyntax: boolean;
  readonly unavailable: Unavailable;
}

/** The hints a search shows the model: results left out, and matches that could only be reported as text. */
export function searchHints(facts: HintFacts): string[] {
  const { matcher, maxResults, truncated, wantSyntax, unavailable } = facts;
  const hints: string[] = [];
  if (truncated) {
    hints.push(
      `truncated: true — more results exist than the ${maxResults} shown; narrow path, file_types or result_types, or raise max_results (up to 100).`,
    );
  }
  if (wantSyntax) {
    if (!matcher.identifierLike) {
      hints.push(`${JSON.stringify(matcher.query)} is not an identifier, so it has no definition or usage results; its matches are text.`);
    }
    if (unavailable.noGrammar.size > 0) {
      const list = [...unavailable.noGrammar].map(([name, count]) => `${name} (${count} file${count === 1 ? '' : 's'})`).join(', ');
      hints.push(`Definitions and usages are unavailable for ${list}: no grammar for that language, so its matches are reported as text.`);
    }
    if (unavailable.large > 0) {
      hints.push(
        `${unavailable.large} matching file${unavailable.large === 1 ? ' is over 2 MB and was' : 's are over 2 MB and were'} searched as text only.`,
      );
    }
    if (unavailable.failedGrammars.size > 0) {
      hints.push(
        `The grammar for ${[...unavailable.failedGrammars].join(', ')} could not be loaded; matches in those files are reported as text.`,
      );
    }
  }
  return hints;
}
