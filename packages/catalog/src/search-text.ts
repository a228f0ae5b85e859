/** Splits text into lower-case words on separators (`_`, `-`, `.`, spaces, punctuation) and camelCase boundaries. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The separator- and case-insensitive key of a tool name: `githubCreateIssue`, `github.create-issue` → `github_create_issue`. */
export function nameKey(name: string): string {
  return splitWords(name).join('_');
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from has have how i if in into is it its me my of on or our so that the their them ' +
    'then there these this those to us was we were what when where which who whom why will with you your'
  ).split(' '),
);

/** Extra words that carry no meaning in a tool search query ("I need a tool to ..."). */
const QUERY_STOP_WORDS = new Set(
  'able help let like need please some something somehow thing tool tools use using want way would could should just'.split(' '),
);

/** Whether a word is dropped from the index and from queries. */
export function isStopWord(word: string): boolean {
  return word.length < 2 || STOP_WORDS.has(word);
}

/** Whether a word is dropped from queries only. */
export function isQueryStopWord(word: string): boolean {
  return isStopWord(word) || QUERY_STOP_WORDS.has(word);
}

const DOUBLE_CONSONANT = /([b-df-hj-km-np-tv-z])\1$/;

function undouble(stem: string): string {
  return DOUBLE_CONSONANT.test(stem) && !/(ll|ss|zz)$/.test(stem) ? stem.slice(0, -1) : stem;
}

/**
 * A light English stemmer, applied to index and query terms alike, so that "issues", "creating" and "created"
 * meet "issue" and "create". It only strips plural, -ing, -ed and a final -e; words of three letters or fewer stay.
 */
export function stemWord(word: string): string {
  let stem = word;
  if (stem.length <= 3 || /\d/.test(stem)) return stem;
  if (stem.endsWith('ies') && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith('sses')) stem = stem.slice(0, -2);
  else if (stem.endsWith('s') && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.endsWith('ing') && stem.length - 3 >= 4) stem = undouble(stem.slice(0, -3));
  else if (stem.endsWith('ed') && stem.length - 2 >= 4) stem = undouble(stem.slice(0, -2));
  if (stem.endsWith('e') && stem.length - 1 >= 3) stem = stem.slice(0, -1);
  return stem;
}

/** Index terms of a text: split, stop words removed, stemmed. */
export function indexTerms(text: string): string[] {
  return splitWords(text)
    .filter((word) => !isStopWord(word))
    .map(stemWord);
}
