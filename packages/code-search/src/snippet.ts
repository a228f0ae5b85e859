/** The longest snippet a hit carries. */
export const MAX_SNIPPET_LENGTH = 240;

/**
 * One line around a match, whitespace collapsed, at most {@link MAX_SNIPPET_LENGTH} characters; a long line is cut to a
 * window around the match, with `…` where text was dropped.
 */
export function makeSnippet(line: string, matchColumn: number, matchLength: number): string {
  const collapsed = line.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= MAX_SNIPPET_LENGTH) return collapsed;
  const before = Math.max(0, matchColumn - 80);
  const window = line.slice(before, matchColumn + matchLength + MAX_SNIPPET_LENGTH);
  let text = window.replace(/\s+/g, ' ');
  const head = before > 0 ? '…' : '';
  if (head) text = text.trimStart();
  const room = MAX_SNIPPET_LENGTH - head.length - 1;
  if (text.length > room) text = `${text.slice(0, room).trimEnd()}…`;
  return (head + text).trim();
}
