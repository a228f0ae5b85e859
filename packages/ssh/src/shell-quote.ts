/** Quotes one word for a POSIX shell: single quotes, with each `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
