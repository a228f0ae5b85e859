import { isQueryStopWord, splitWords, stemWord } from './search-text.js';
import { isAbbreviation, leadingVerbSynonymsOf, synonymsOf } from './search-synonyms.js';

/** One term sent to the index, with how it is matched and which query words it stands for. */
export interface QueryTerm {
  term: string;
  /** Query words (by position) this term covers. */
  groups: number[];
  weight: number;
  /** Edit distance allowed, or false. */
  fuzzy: number | false;
  prefix: boolean;
}

/** Weight of a word swapped for a spelling that exists in the index (a transposition typo). */
const TRANSPOSED_WEIGHT = 0.9;
/** Weight of a synonym the model did not write. */
const SYNONYM_WEIGHT = 0.6;
/** Weight of the expansion of an abbreviation ("pr" → "pull request"): the same words, spelled out. */
const ABBREVIATION_WEIGHT = 0.95;
/** Weight of two adjacent words joined into a compound that exists in the index ("on call" → "oncall"). */
const COMPOUND_WEIGHT = 0.8;

function transposed(term: string, known: (term: string) => boolean): string | undefined {
  for (let i = 0; i + 1 < term.length; i++) {
    if (term[i] === term[i + 1]) continue;
    const candidate = term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2);
    if (known(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A file name or path in a request ("README.old", "src/index.ts", "vite.config.ts", ".env", "/etc/nginx/nginx.conf",
 * "~/notes.txt"), possibly at the end of a sentence: its first word also stands for "file".
 */
const FILE_NAME =
  /(?:^|[\s"'`(*[])((?:~?\/)?(?:[\w.-]+\/)*\.?(?:[\w-]+(?:\.[\w-]+)*)?\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|txt|py|go|rs|java|rb|php|c|h|cpp|cs|sh|yaml|yml|toml|ini|cfg|conf|env|csv|log|xml|html|css|sql|pdf|png|jpe?g|gif|svg|zip|lock|old|bak))(?=$|[\s"'`),;:!?*\]]|\.(?:\s|$))/gi;

/** Words that may come before a request's verb without being the verb ("please", "I want to", "could you"). */
const PREAMBLE = new Set('please kindly just i we you can could would will need want wants like to let me us go ahead and now'.split(' '));

function fileNameWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.matchAll(FILE_NAME)) {
    const first = splitWords(match[1]!)[0];
    if (first !== undefined) words.add(first);
  }
  return words;
}

function fuzzyFor(word: string): number | false {
  if (word.length >= 8) return 2;
  if (word.length >= 4) return 1;
  return false;
}

/**
 * Turns free text into index terms: each meaningful word (stemmed, with prefix and fuzzy matching, a transposition
 * fixed when the swapped spelling is known), its synonyms, and adjacent-word compounds known to the index.
 * `groups` is the number of meaningful query words.
 */
export function buildQueryTerms(text: string, known: (term: string) => boolean): { terms: QueryTerm[]; groups: number } {
  const words = splitWords(text);
  const terms: QueryTerm[] = [];
  const push = (term: QueryTerm) => {
    const existing = terms.find((other) => other.term === term.term);
    if (!existing) {
      terms.push(term);
      return;
    }
    for (const group of term.groups) if (!existing.groups.includes(group)) existing.groups.push(group);
    if (term.weight > existing.weight) Object.assign(existing, { weight: term.weight, fuzzy: term.fuzzy, prefix: term.prefix });
  };
  const fileWords = fileNameWords(text);
  // The request's verb: its first word after any preamble ("please", "I want to", "could you").
  const verbPosition = words.findIndex((word) => !PREAMBLE.has(word));
  const groupOf = new Map<number, number>();
  for (const [position, word] of words.entries()) if (!isQueryStopWord(word)) groupOf.set(position, groupOf.size);
  for (const [position, word] of words.entries()) {
    const group = groupOf.get(position);
    if (group !== undefined) {
      const stem = stemWord(word);
      const isKnown = known(stem);
      const fixed = isKnown ? undefined : transposed(stem, known);
      // A word the index knows is taken as spelled right: typo expansion only for unknown words (and not for a fixed one).
      const fuzzy = isKnown || fixed ? false : fuzzyFor(word);
      // Prefix expansion for partial words: unknown ones, and the last word (where a query is usually cut short).
      const prefix = word.length >= 3 && !fixed && (!isKnown || group === groupOf.size - 1);
      push({ term: fixed ?? stem, groups: [group], weight: fixed ? TRANSPOSED_WEIGHT : 1, fuzzy, prefix });
      const synonymWeight = isAbbreviation(word) ? ABBREVIATION_WEIGHT : SYNONYM_WEIGHT;
      const leading = position === verbPosition ? leadingVerbSynonymsOf(word) : [];
      const file = fileWords.has(word) ? ['file'] : [];
      for (const synonym of [...synonymsOf(word), ...leading, ...file]) {
        for (const part of splitWords(synonym)) {
          if (isQueryStopWord(part)) continue;
          push({ term: stemWord(part), groups: [group], weight: synonymWeight, fuzzy: false, prefix: false });
        }
      }
    }
    const next = words[position + 1];
    if (next !== undefined) {
      const compound = stemWord(word + next);
      const covered = [group, groupOf.get(position + 1)].filter((value): value is number => value !== undefined);
      if (covered.length && known(compound))
        push({ term: compound, groups: covered, weight: COMPOUND_WEIGHT, fuzzy: false, prefix: false });
    }
  }
  return { terms, groups: groupOf.size };
}
