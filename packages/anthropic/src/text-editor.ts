import {
  ANTHROPIC_NATIVE_VOCABULARY,
  errorResult,
  okResult,
  type ErrorCode,
  type FileOperation,
  type ToolHost,
  type ToolResult,
} from 'toolhost';

/** Options of Anthropic's text editor tool. */
export interface TextEditorOptions {
  /** Token budget of a `view` (default 10,000, as every tool). */
  maxOutputTokens?: number;
  /** The `tool_use` id of the call, for the trace span of its edit (set per call by answerToolUses). */
  callId?: string;
}

type EditorHost = Pick<ToolHost, 'edit' | 'readPath' | 'budget'>;

/** Lines shown around an edit in the snippet that confirms it. */
const SNIPPET_LINES = 4;

const fail = (code: ErrorCode, message: string): ToolResult => errorResult(code, message);
const ok = (output: string): ToolResult => okResult(output);

/** Applies one editor command's file operation with the engine's guarantees, its texts in the text editor's terms. */
function apply(host: EditorHost, operation: FileOperation): Promise<ToolResult> {
  return host.edit([operation], { vocabulary: ANTHROPIC_NATIVE_VOCABULARY });
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

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
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
        return fail(
          'invalid_arguments',
          `view_range [${range.join(', ')}] is outside the file, which has ${lines.length} lines: use 1 <= start_line <= end_line <= ${lines.length}, or end_line -1.`,
        );
      }
    }
    body = lines.length === 0 ? `${path} is empty.` : numberLines(lines.slice(start - 1, end), start);
  }
  return ok((await host.budget('str_replace_based_edit_tool', body, options.maxOutputTokens)).output);
}

async function create(host: EditorHost, args: Record<string, unknown>): Promise<ToolResult> {
  const path = args.path as string;
  if (typeof args.file_text !== 'string') return fail('invalid_arguments', 'create needs file_text (string).');
  // The file gets file_text byte for byte; an existing path is refused, as the reference editor refuses it.
  const result = await apply(host, { kind: 'add', path, content: args.file_text });
  return result.ok ? ok(`File created successfully at: ${path}`) : result;
}

async function strReplace(host: EditorHost, args: Record<string, unknown>): Promise<ToolResult> {
  const path = args.path as string;
  if (typeof args.old_str !== 'string' || args.old_str === '')
    return fail('invalid_arguments', 'str_replace needs old_str: the exact, non-empty text to replace.');
  if (args.new_str !== undefined && typeof args.new_str !== 'string') return fail('invalid_arguments', 'new_str must be a string.');
  const read = await readFile(host, path);
  if ('ok' in read) return read;
  const oldText = args.old_str;
  const newText = (args.new_str as string | undefined) ?? '';
  const result = await apply(host, { kind: 'replace', path: read.path, oldText, newText });
  if (!result.ok) return result;
  // The snippet starts where the text was found (in LF or, as the engine also matches, CRLF form).
  const at = read.text.indexOf(oldText);
  const offset = at >= 0 ? at : Math.max(0, read.text.indexOf(oldText.replace(/\r?\n/g, '\r\n')));
  return snippet(host, read.path, path, lineOf(read.text, offset), textLines(newText).length);
}

async function insert(host: EditorHost, args: Record<string, unknown>): Promise<ToolResult> {
  const path = args.path as string;
  // Models send insert_text; the documentation names it new_str: both are accepted.
  const inserted = typeof args.insert_text === 'string' ? args.insert_text : args.new_str;
  if (typeof inserted !== 'string') return fail('invalid_arguments', 'insert needs insert_text (string): the text to insert.');
  const line = args.insert_line;
  if (!Number.isInteger(line))
    return fail('invalid_arguments', 'insert needs insert_line (integer): 0 inserts at the top, N after line N.');
  const read = await readFile(host, path);
  if ('ok' in read) return read;
  const after = line as number;
  const result = await apply(host, { kind: 'insert', path: read.path, afterLine: after, text: inserted });
  if (!result.ok) return result;
  return snippet(host, read.path, path, after, Math.max(1, textLines(inserted).length));
}

/**
 * Runs one call of Anthropic's text editor tool through the host: `view` reads with the tools' boundary checks and
 * budgets; `create`, `str_replace` and `insert` are file operations of the patch engine, so they change exactly the
 * bytes they name, are atomic, keep the BOM and the file's mode, stay inside the workspace and count toward the
 * anti-blind-editing gate.
 */
export async function runTextEditor(editorHost: EditorHost, input: unknown, options: TextEditorOptions = {}): Promise<ToolResult> {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const callId = options.callId;
  // Edits carry the call's id to their trace span; reads and budgets have no span.
  const host: EditorHost =
    callId === undefined
      ? editorHost
      : {
          edit: (operations, editOptions) => editorHost.edit(operations, { ...editOptions, callId }),
          readPath: (path) => editorHost.readPath(path),
          budget: (...parts) => editorHost.budget(...parts),
        };
  if (typeof args.path !== 'string' || args.path === '')
    return fail('invalid_arguments', 'Invalid arguments for str_replace_based_edit_tool: path must be a non-empty string');
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
      return fail(
        'invalid_arguments',
        `Invalid arguments for str_replace_based_edit_tool: command must be one of view, create, str_replace, insert; got ${JSON.stringify(args.command)}`,
      );
  }
}
