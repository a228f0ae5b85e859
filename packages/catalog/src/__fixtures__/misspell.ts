import { seededRandom, textSeed } from './seeded-random.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A request with `edits` random letter edits (a letter replaced, dropped or added) in each of its words of four letters
 * or more, the same every run for the same request.
 */
export function misspell(request: string, edits: number): string {
  const random = seededRandom(textSeed(request) + edits);
  const letter = () => LETTERS[Math.floor(random() * LETTERS.length)];
  const misspellWord = (word: string) => {
    let spelled = word;
    for (let edit = 0; edit < edits; edit++) {
      const at = Math.floor(random() * spelled.length);
      const kind = Math.floor(random() * 3);
      if (kind === 0) spelled = spelled.slice(0, at) + letter() + spelled.slice(at + 1);
      else if (kind === 1) spelled = spelled.slice(0, at) + spelled.slice(at + 1);
      else spelled = spelled.slice(0, at) + letter() + spelled.slice(at);
    }
    return spelled;
  };
  return request
    .split(' ')
    .map((word) => (word.length >= 4 ? misspellWord(word) : word))
    .join(' ');
}
