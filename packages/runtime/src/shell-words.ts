/** Characters that end a word or start an operator outside quotes (POSIX metacharacters and the newline). */
const OPERATOR = /[|&;<>()\n]/;
/** Characters that, outside quotes, ask the shell to expand something: parameters, commands, globs, braces, home. */
const EXPANSION = /[$`*?[{~]/;

/**
 * The argv a POSIX shell would build from `command` when it is a plain list of words, read with the shell's quoting:
 * `'…'` is literal, `"…"` is literal but for `\` before `$`, `` ` ``, `"`, `\` or a newline, and an unquoted `\`
 * escapes the next character (a `\` newline joins lines). Undefined when the shell would do more than split words:
 * an operator, a redirection, a comment, an expansion (`$`, `` ` ``, a glob, `~`, `{`) or an unclosed quote, since
 * then the words are not known without running it.
 */
export function splitShellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let index = 0;
  const append = (text: string) => {
    word = (word ?? '') + text;
  };
  while (index < command.length) {
    const char = command[index];
    if (char === ' ' || char === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
      index++;
    } else if (char === '\n') {
      // A newline ends the command; only blank text may follow it.
      if (command.slice(index).trim() !== '') return undefined;
      break;
    } else if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) return undefined;
      append(command.slice(index + 1, end));
      index = end + 1;
    } else if (char === '"') {
      const end = readDoubleQuoted(command, index + 1);
      if (end === undefined) return undefined;
      append(end.text);
      index = end.next;
    } else if (char === '\\') {
      if (index + 1 >= command.length) return undefined;
      // A backslash before a newline joins the lines; before any other character it makes that character literal.
      if (command[index + 1] !== '\n') append(command[index + 1]);
      index += 2;
    } else if (OPERATOR.test(char) || EXPANSION.test(char) || (char === '#' && word === undefined)) {
      return undefined;
    } else {
      append(char);
      index++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The literal text of a double-quoted string opened before `start`, and the index after its closing quote. */
function readDoubleQuoted(command: string, start: number): { text: string; next: number } | undefined {
  let text = '';
  for (let index = start; index < command.length; index++) {
    const char = command[index];
    if (char === '"') return { text, next: index + 1 };
    if (char === '$' || char === '`') return undefined;
    if (char === '\\' && index + 1 < command.length && '$`"\\\n'.includes(command[index + 1])) {
      if (command[index + 1] !== '\n') text += command[index + 1];
      index++;
    } else text += char;
  }
  return undefined;
}
