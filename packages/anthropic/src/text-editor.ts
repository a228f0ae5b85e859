import type { ToolHost, ToolResult } from 'toolhost';

/** Options of Anthropic's text editor tool. */
export interface TextEditorOptions {
  /** Token budget of a `view` (default 10,000, as every tool). */
  maxOutputTokens?: number;
}

type EditorHost = Pick<ToolHost, 'call' | 'readPath' | 'budget'>;

/** Lines shown around an edit in the snippet that confirms it. */
const SNIPPET_LINES = 4;

function fail(code: string, message: string): ToolResult {
  return { ok: false, output: `Error [${code}]: ${message}`, error: { code: code as never, message } };
}

function ok(output: string): ToolResult {
  return { ok: true, output };
}

/** The text's lines without their endings (a final line ending starts no extra line). */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `cat -n` numbering: the line number right-aligned in six columns, a tab, the line. */
export function numberLines(lines: readonly string[], firstLine = 1): string {
  return lines.map((line, index) => `${String(firstLine + index).padStart(6)}\t${line}`).join('\n');
}

/** Starts of every occurrence of `needle` in `haystack`. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index >= 0; index = haystack.indexOf(needle, index + 1)) found.push(index);
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

function sameLines(lines: readonly string[], at: number, sequence: readonly string[]): boolean {
  for (let index = 0; index < sequence.length; index++) if (lines[at + index] !== sequence[index]) return false;
  return true;
}

function countSequence(lines: readonly string[], sequence: readonly string[]): number {
  let count = 0;
  for (let at = 0; at + sequence.length <= lines.length; at++) if (sameLines(lines, at, sequence)) count += 1;
  return count;
}

/**
 * An Update section replacing lines [start, end) with `replacement`, with just enough unchanged lines around it that
 * the old segment occurs once in the file, so the patch engine places it exactly there.
 */
export function replacementSection(path: string, lines: readonly string[], start: number, end: number, replacement: readonly string[]): string {
  let before = 0;
  let after = 0;
  const unique = () => {
    const segment = lines.slice(start - before, end + after);
    return segment.length > 0 && countSequence(lines, segment) === 1;
  };
  // An insertion at the very end needs no context: a pure insertion without an anchor goes at the end of the file.
  const atEnd = start === end && end === lines.length;
  while (!atEnd && !unique()) {
    const canGrowBefore = start - before > 0;
    const canGrowAfter = end + after < lines.length;
    if (!canGrowBefore && !canGrowAfter) break;
    if (canGrowBefore) before += 1;
    if (!unique() && canGrowAfter) after += 1;
  }
  const body = [
    ...lines.slice(start - before, start).map((line) => ` ${line}`),
    ...lines.slice(start, end).map((line) => `-${line}`),
    ...replacement.map((line) => `+${line}`),
    ...lines.slice(end, end + after).map((line) => ` ${line}`),
  ];
  return `*** Update File: ${path}\n@@\n${body.join('\n')}`;
}

function envelope(...sections: string[]): string {
  return `*** Begin Patch\n${sections.join('\n')}\n*** End Patch`;
}

async function readFile(host: EditorHost, path: string): Promise<{ path: string; text: string } | ToolResult> {
  const read = await host.readPath(path);
  if (!read.ok) return fail(read.error.code, read.error.message);
  if (read.kind !== 'file') return fail('tool_failed', `${JSON.stringify(path)} is a folder; give the path of a file.`);
  return { path: read.path, text: read.text };
}

async function snippet(host: EditorHost, path: string, shown: string, firstChanged: number, changedLines: number): Promise<ToolResult> {
  const read = await readFile(host, path);
  if ('ok' in read) return read;
  const lines = textLines(read.text);
  const start = Math.max(0, firstChanged - SNIPPET_LINES);
  const end = Math.min(lines.length, firstChanged + changedLines + SNIPPET_LINES);
  const body = `The file ${shown} has been edited. Here's the result of running \`cat -n\` on a snippet of ${shown}:\n${numberLines(lines.slice(start, end), start + 1)}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`;
  return ok((await host.budget('str_replace_based_edit_tool', body)).output);
}

async function view(host: EditorHost, args: Record<string, unknown>, options: TextEditorOptions): Promise<ToolResult> {
  const path = args.path as string;
  const read = await host.readPath(path);
  if (!read.ok) return fail(read.error.code, read.error.message);
  let body: string;
  if (read.kind === 'directory') {
    if (args.view_range !== undefined) return fail('invalid_arguments', 'view_range applies to files, not folders.');
    body = `Here are the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:\n${read.entries.join('\n')}`;
  } else {
    const lines = textLines(read.text);
    let start = 1;
    let end = lines.length;
    if (args.view_range !== undefined) {
      const range = args.view_range;
      if (!Array.isArray(range) || range.length !== 2 || !range.every((value) => Number.isInteger(value))) {
        return fail('invalid_arguments', 'view_range must be two integers [start_line, end_line]; end_line -1 means the end of the file.');
      }
      [start, end] = range as [number, number];
      if (end === -1) end = lines.length;
      if (start < 1 || start > Math.max(1, lines.length) || end < start || end > lines.length) {
        return fail('invalid_arguments', `view_range [${range.join(', ')}] is outside the file, which has ${lines.length} lines: use 1 <= start_line <= end_line <= ${lines.length}, or end_line -1.`);
      }
    }
    body = lines.length === 0 ? `${path} is empty.` : numberLines(lines.slice(start - 1, end), start);
  }
  return ok((await host.budget('str_replace_based_edit_tool', body, options.maxOutputTokens)).output);
}

async function create(host: EditorHost, args: Record<string, unknown>): Promise<ToolResult> {
  const path = args.path as string;
  if (typeof args.file_text !== 'string') return fail('invalid_arguments', 'create needs file_text (string).');
  const added = ['*** Add File: ' + path, ...textLines(args.file_text).map((line) => `+${line}`)].join('\n');
  const existing = await host.readPath(path);
  if (existing.ok && existing.kind === 'directory') return fail('tool_failed', `${JSON.stringify(path)} is a folder; give the path of a file.`);
  // Overwriting is a delete and an add in one atomic patch.
  const input = existing.ok ? envelope(`*** Delete File: ${path}`, added) : envelope(added);
  const result = await host.call('apply_patch', { input });
  return result.ok ? ok(`File created successfully at: ${path}`) : result;
}

async function strReplace(host: EditorHost, args: Record<string, unknown>): Promise<ToolResult> {
  const path = args.path as string;
  if (typeof args.old_str !== 'string' || args.old_str === '') return fail('invalid_arguments', 'str_replace needs old_str: the exact, non-empty text to replace.');
  if (args.new_str !== undefined && typeof args.new_str !== 'string') return fail('invalid_arguments', 'new_str must be a string.');
  const read = await readFile(host, path);
  if ('ok' in read) return read;
  const text = read.text.replace(/\r\n/g, '\n');
  const oldText = args.old_str.replace(/\r\n/g, '\n');
  const newText = ((args.new_str as string | undefined) ?? '').replace(/\r\n/g, '\n');
  const found = occurrences(text, oldText);
  if (found.length === 0) {
    return fail('patch_context_not_found', `No replacement was performed: old_str did not appear verbatim in ${path}. View the file and copy the text exactly, whitespace included.`);
  }
  if (found.length > 1) {
    const lines = found.map((offset) => lineOf(text, offset) + 1);
    return fail('patch_ambiguous', `No replacement was performed: old_str appears ${found.length} times in ${path}, at lines ${lines.join(', ')}. Include more surrounding lines so it matches exactly once.`);
  }
  const offset = found[0];
  const matchEnd = offset + oldText.length;
  // lastIndexOf treats a negative start as 0 and would find a line break at offset 0 itself.
  const regionStart = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', matchEnd);
  const regionEnd = lineEnd < 0 ? text.length : lineEnd;
  const lines = textLines(text);
  const startLine = lineOf(text, regionStart);
  let oldRegion = text.slice(regionStart, regionEnd);
  let newRegion = text.slice(regionStart, offset) + newText + text.slice(matchEnd, regionEnd);
  // A match that takes the file's final line ending: compare whole lines, and an emptied region removes its lines.
  const trailing = regionEnd === text.length && oldRegion.endsWith('\n');
  if (trailing) {
    oldRegion = oldRegion.slice(0, -1);
    if (newRegion.endsWith('\n')) newRegion = newRegion.slice(0, -1);
  }
  const oldCount = oldRegion.split('\n').length;
  // Emptying the file's last lines (with or without a final line ending) removes them rather than leaving an empty line.
  const emptied = regionEnd === text.length && newRegion === '';
  // In a file without a final line ending, the patch gives the new last line one (every added line ends with one): a
  // replacement that ends with a line break there already ends at it, rather than adding an empty line.
  if (regionEnd === text.length && !text.endsWith('\n') && newRegion.endsWith('\n')) newRegion = newRegion.slice(0, -1);
  const replacement = emptied ? [] : newRegion.split('\n');
  const endLine = Math.min(lines.length, startLine + oldCount);
  const result = await host.call('apply_patch', { input: envelope(replacementSection(read.path, lines, startLine, endLine, replacement)) });
  if (!result.ok) return result;
  return snippet(host, read.path, path, startLine, replacement.length);
}

async function insert(host: EditorHost, args: Record<string, unknown>): Promise<ToolResult> {
  const path = args.path as string;
  // Models send insert_text; the documentation names it new_str: both are accepted.
  const inserted = typeof args.insert_text === 'string' ? args.insert_text : args.new_str;
  if (typeof inserted !== 'string') return fail('invalid_arguments', 'insert needs insert_text (string): the text to insert.');
  const line = args.insert_line;
  if (!Number.isInteger(line)) return fail('invalid_arguments', 'insert needs insert_line (integer): 0 inserts at the top, N after line N.');
  const read = await readFile(host, path);
  if ('ok' in read) return read;
  const lines = textLines(read.text);
  const after = line as number;
  if (after < 0 || after > lines.length) return fail('invalid_arguments', `insert_line ${after} is outside the file, which has ${lines.length} lines: use 0..${lines.length}.`);
  const added = inserted === '' ? [''] : textLines(inserted.replace(/\r\n/g, '\n'));
  const result = await host.call('apply_patch', { input: envelope(replacementSection(read.path, lines, after, after, added)) });
  if (!result.ok) return result;
  return snippet(host, read.path, path, after, added.length);
}

/**
 * Runs one call of Anthropic's text editor tool through the host: `view` reads with the tools' boundary checks and
 * budgets; `create`, `str_replace` and `insert` become apply_patch patches, so they are atomic, keep line endings and
 * the BOM, stay inside the workspace and count toward the anti-blind-editing gate.
 */
export async function runTextEditor(host: EditorHost, input: unknown, options: TextEditorOptions = {}): Promise<ToolResult> {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof args.path !== 'string' || args.path === '') return fail('invalid_arguments', 'Invalid arguments for str_replace_based_edit_tool: path must be a non-empty string');
  // Edits become patch headers, which end at a line break and trim the path: refuse what would name another file
  // (a view reads the path as given).
  if (/[\r\n]/.test(args.path)) return fail('outside_workspace', `path ${JSON.stringify(args.path)} contains a NUL or control character`);
  if (args.command !== 'view' && args.path !== args.path.trim()) {
    return fail('invalid_arguments', `path ${JSON.stringify(args.path)} starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.`);
  }
  switch (args.command) {
    case 'view':
      return view(host, args, options);
    case 'create':
      return create(host, args);
    case 'str_replace':
      return strReplace(host, args);
    case 'insert':
      return insert(host, args);
    default:
      return fail('invalid_arguments', `Invalid arguments for str_replace_based_edit_tool: command must be one of view, create, str_replace, insert; got ${JSON.stringify(args.command)}`);
  }
}
