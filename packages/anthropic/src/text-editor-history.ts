/** Per host, per workspace path: the file's text (BOM excluded) before each edit made through the text editor. */
const histories = new WeakMap<object, Map<string, string[]>>();

/** Remembers the text a file had before an edit (after a create: the created text, as the reference editor records). */
export function recordEdit(host: object, path: string, before: string): void {
  let files = histories.get(host);
  if (!files) histories.set(host, (files = new Map<string, string[]>()));
  const history = files.get(path);
  if (history) history.push(before);
  else files.set(path, [before]);
}

/** Takes the text before the last edit of a file, if any. */
export function takeLastEdit(host: object, path: string): string | undefined {
  return histories.get(host)?.get(path)?.pop();
}
