import { expandTabs } from './expanded-text.js';

/** The reference editor's output limit in characters (`MAX_RESPONSE_LEN` of computer_use_demo/tools/run.py). */
export const MAX_RESPONSE_LEN = 16_000;

/** What the reference editor appends where it clips an output (`TRUNCATED_MESSAGE` of computer_use_demo/tools/run.py). */
export const TRUNCATED_MESSAGE =
  '<response clipped><NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>';

/** The reference's `maybe_truncate`: the first `limit` characters and the clipped note, or the whole text (`Infinity`: no limit). */
export function maybeTruncate(content: string, limit = MAX_RESPONSE_LEN): string {
  if (content.length <= limit) return content;
  const characters = Array.from(content);
  return characters.length <= limit ? content : characters.slice(0, limit).join('') + TRUNCATED_MESSAGE;
}

/** `cat -n` numbering: the line number right-aligned in six columns, a tab, the line. */
export function numberLines(lines: readonly string[], firstLine = 1): string {
  return lines.map((line, index) => `${String(firstLine + index).padStart(6)}\t${line}`).join('\n');
}

/** The text's lines without their endings (a final line ending starts no extra line). */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The reference's `_make_output`: the content clipped to `limit` characters, its tabs expanded, every line (split on
 * LF, so a final line break shows an empty last line) numbered, under the `cat -n` header, ending in a line break.
 */
export function makeOutput(content: string, descriptor: string, initLine = 1, limit = MAX_RESPONSE_LEN): string {
  const shown = expandTabs(maybeTruncate(content, limit));
  return `Here's the result of running \`cat -n\` on ${descriptor}:\n${numberLines(shown.split('\n'), initLine)}\n`;
}

/** A list of integers as Python prints it: `[1, 2]`. */
export function pythonList(values: readonly unknown[]): string {
  return `[${values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))).join(', ')}]`;
}

/** A path as Python's `str(Path(path))` prints it: no repeated or trailing slash, no `.` part. */
export function pythonPath(path: string): string {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (path.startsWith('/')) return `/${parts.join('/')}`;
  return parts.length ? parts.join('/') : '.';
}
