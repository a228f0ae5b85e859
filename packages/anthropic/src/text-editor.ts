import { ANTHROPIC_NATIVE_VOCABULARY, errorResult, okResult, type ErrorCode, type ToolHost, type ToolResult } from 'toolhost';
import { expandTabs, lfText } from './expanded-text.js';
import { planInsert, planStrReplace, type PlannedEdit } from './text-editor-edits.js';
import { recordEdit, takeLastEdit } from './text-editor-history.js';
import { MAX_RESPONSE_LEN, makeOutput, maybeTruncate, pythonList, pythonPath } from './text-editor-output.js';
import {
  NEWEST_TEXT_EDITOR_VERSION,
  checkMaxCharacters,
  hasUndoEdit,
  textEditorCommands,
  textEditorName,
  type AnthropicTextEditorVersion,
} from './text-editor-versions.js';

export { numberLines, textLines } from './text-editor-output.js';

/** Options of Anthropic's text editor tool. */
export interface TextEditorOptions {
  /** Token budget of an output (default 10,000, as every tool). */
  maxOutputTokens?: number;
  /** The `tool_use` id of the call, for the trace span of its edit (set per call by answerToolUses). */
  callId?: string;
  /** The version the model was given (default: the newest, text_editor_20250728). */
  version?: AnthropicTextEditorVersion;
  /** text_editor_20250728's `max_characters`: a view shows at most this many characters of the file. */
  maxCharacters?: number;
}

type EditorHost = Pick<ToolHost, 'edit' | 'readPath' | 'budget'>;

/** One call: the host, the version's traits, the path as the reference prints it. */
interface Call {
  host: EditorHost;
  /** The host the edit history belongs to. */
  owner: object;
  version: AnthropicTextEditorVersion;
  name: string;
  options: TextEditorOptions;
  args: Record<string, unknown>;
  /** The path as given, for reads and writes. */
  path: string;
  /** The path as the reference prints it (`str(Path(path))`). */
  shown: string;
}

/** Lines shown around an edit in the snippet that confirms it. */
const SNIPPET_LINES = 4;
const MISSING_SUFFIX = ' does not exist. Check the path, or list its folder first.';

const fail = (code: ErrorCode, message: string): ToolResult => errorResult(code, message);

async function answer(call: Call, body: string): Promise<ToolResult> {
  return okResult((await call.host.budget(call.name, body, call.options.maxOutputTokens)).output);
}

/** Reads the file a command works on, with the reference editor's texts for a missing path and a folder. */
async function readTarget(call: Call, command: string): Promise<{ path: string; text: string } | { entries: string[] } | ToolResult> {
  const read = await call.host.readPath(call.path);
  if (!read.ok) {
    if (read.error.code === 'tool_failed' && read.error.message.endsWith(MISSING_SUFFIX))
      return fail(read.error.code, `The path ${call.shown} does not exist. Please provide a valid path.`);
    return fail(read.error.code, read.error.message);
  }
  if (read.kind === 'directory') {
    if (command !== 'view')
      return fail('tool_failed', `The path ${call.shown} is a directory and only the \`view\` command can be used on directories`);
    return { entries: read.entries };
  }
  return { path: read.path, text: read.text };
}

/** Writes a planned edit as one engine file operation: atomic, locked, counted by the gate, BOM and mode kept. */
async function write(call: Call, path: string, edit: Pick<PlannedEdit, 'at' | 'oldText' | 'newText'>): Promise<ToolResult> {
  const { callId } = call.options;
  return call.host.edit([{ kind: 'replace', path, oldText: edit.oldText, newText: edit.newText, at: edit.at }], {
    vocabulary: ANTHROPIC_NATIVE_VOCABULARY,
    ...(callId === undefined ? {} : { callId }),
  });
}

function viewRange(range: unknown, lineCount: number): { start: number; end: number } | string {
  if (!Array.isArray(range) || range.length !== 2 || !range.every((value) => Number.isInteger(value)))
    return 'Invalid `view_range`. It should be a list of two integers.';
  const [start, end] = range as [number, number];
  const shown = pythonList(range);
  if (start < 1 || start > lineCount)
    return `Invalid \`view_range\`: ${shown}. Its first element \`${start}\` should be within the range of lines of the file: ${pythonList([1, lineCount])}`;
  if (end > lineCount)
    return `Invalid \`view_range\`: ${shown}. Its second element \`${end}\` should be smaller than the number of lines in the file: \`${lineCount}\``;
  if (end !== -1 && end < start)
    return `Invalid \`view_range\`: ${shown}. Its second element \`${end}\` should be larger or equal than its first \`${start}\``;
  return { start, end: end === -1 ? lineCount : end };
}

async function view(call: Call): Promise<ToolResult> {
  const target = await readTarget(call, 'view');
  if ('ok' in target) return target;
  const range = call.args.view_range;
  const ranged = range !== undefined && range !== null && !(Array.isArray(range) && range.length === 0);
  if ('entries' in target) {
    if (ranged) return fail('invalid_arguments', 'The `view_range` parameter is not allowed when `path` points to a directory.');
    const base = call.shown === '/' ? '' : call.shown;
    const listing = [call.shown, ...target.entries.map((entry) => `${base}/${entry.replace(/\/$/, '')}`)].join('\n') + '\n';
    return answer(
      call,
      `Here's the files and directories up to 2 levels deep in ${call.shown}, excluding hidden items and node_modules:\n${maybeTruncate(listing)}\n`,
    );
  }
  let content = lfText(target.text);
  let initLine = 1;
  if (ranged) {
    const lines = content.split('\n');
    const checked = viewRange(range, lines.length);
    if (typeof checked === 'string') return fail('invalid_arguments', checked);
    content = lines.slice(checked.start - 1, checked.end).join('\n');
    initLine = checked.start;
  }
  // text_editor_20250728 shows the whole file unless max_characters is set; the older versions clip as the reference does.
  const limit = call.options.maxCharacters ?? (call.version === 'text_editor_20250728' ? Infinity : MAX_RESPONSE_LEN);
  return answer(call, makeOutput(content, call.shown, initLine, limit));
}

async function create(call: Call): Promise<ToolResult> {
  const fileText = call.args.file_text;
  if (typeof fileText !== 'string') return fail('invalid_arguments', 'Parameter `file_text` is required for command: create');
  const existing = await call.host.readPath(call.path);
  if (existing.ok)
    return fail('patch_target_exists', `File already exists at: ${call.shown}. Cannot overwrite files using command \`create\`.`);
  // The file gets file_text byte for byte; an existing path is refused, as the reference editor refuses it.
  const { callId } = call.options;
  const result = await call.host.edit([{ kind: 'add', path: call.path, content: fileText }], {
    vocabulary: ANTHROPIC_NATIVE_VOCABULARY,
    ...(callId === undefined ? {} : { callId }),
  });
  if (!result.ok) return result;
  if (hasUndoEdit(call.version)) {
    const created = await call.host.readPath(call.path);
    if (created.ok) recordEdit(call.owner, created.path, fileText.replace(/^\ufeff/, ''));
  }
  return okResult(`File created successfully at: ${call.shown}`);
}

/** The edited lines and four around them, as the reference prints them after an edit. */
function snippet(newRaw: string, from: number, to: number): string {
  return expandTabs(lfText(newRaw)).split('\n').slice(from, to).join('\n');
}

async function strReplace(call: Call): Promise<ToolResult> {
  const { old_str: oldStr, new_str: newStr } = call.args;
  if (typeof oldStr !== 'string') return fail('invalid_arguments', 'Parameter `old_str` is required for command: str_replace');
  if (oldStr === '') return fail('invalid_arguments', 'No replacement was performed: old_str is empty; give the exact text to replace.');
  if (newStr !== undefined && newStr !== null && typeof newStr !== 'string')
    return fail('invalid_arguments', 'Parameter `new_str` of command str_replace must be a string.');
  const target = await readTarget(call, 'str_replace');
  if ('ok' in target) return target;
  if ('entries' in target) return fail('tool_failed', `The path ${call.shown} is a directory.`);
  const planned = planStrReplace(target.text, oldStr, typeof newStr === 'string' ? newStr : '', call.shown);
  if (!planned.ok) return fail(planned.code, planned.message);
  const result = await write(call, target.path, planned);
  if (!result.ok) return result;
  if (hasUndoEdit(call.version)) recordEdit(call.owner, target.path, target.text);
  const start = Math.max(0, planned.firstLine - SNIPPET_LINES);
  const end = planned.firstLine + SNIPPET_LINES + planned.addedBreaks;
  const shown = makeOutput(snippet(planned.newRaw, start, end + 1), `a snippet of ${call.shown}`, start + 1);
  return answer(
    call,
    `The file ${call.shown} has been edited. ${shown}Review the changes and make sure they are as expected. Edit the file again if necessary.`,
  );
}

async function insert(call: Call): Promise<ToolResult> {
  const { insert_line: insertLine, insert_text: insertText, new_str: newStr } = call.args;
  // Claude 4 models send insert_text; the reference editor and the documentation name it new_str: both are accepted.
  const text = typeof insertText === 'string' ? insertText : newStr;
  const named = call.version === 'text_editor_20250728' ? 'insert_text' : 'new_str';
  if (insertLine === undefined || insertLine === null)
    return fail('invalid_arguments', 'Parameter `insert_line` is required for command: insert');
  if (typeof text !== 'string') return fail('invalid_arguments', `Parameter \`${named}\` is required for command: insert`);
  const target = await readTarget(call, 'insert');
  if ('ok' in target) return target;
  if ('entries' in target) return fail('tool_failed', `The path ${call.shown} is a directory.`);
  const planned = planInsert(target.text, insertLine, text);
  if (!planned.ok) return fail(planned.code, planned.message);
  const result = await write(call, target.path, planned);
  if (!result.ok) return result;
  if (hasUndoEdit(call.version)) recordEdit(call.owner, target.path, target.text);
  const line = planned.firstLine;
  const from = Math.max(0, line - SNIPPET_LINES);
  const shown = makeOutput(
    snippet(planned.newRaw, from, line + planned.addedBreaks + SNIPPET_LINES),
    'a snippet of the edited file',
    Math.max(1, line - SNIPPET_LINES + 1),
  );
  return answer(
    call,
    `The file ${call.shown} has been edited. ${shown}Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.`,
  );
}

async function undoEdit(call: Call): Promise<ToolResult> {
  const target = await readTarget(call, 'undo_edit');
  if ('ok' in target) return target;
  if ('entries' in target) return fail('tool_failed', `The path ${call.shown} is a directory.`);
  const before = takeLastEdit(call.owner, target.path);
  if (before === undefined) return fail('tool_failed', `No edit history found for ${call.shown}.`);
  // The undo is itself one engine write over the whole text read just now, so it too is atomic and keeps BOM and mode.
  const result = await write(call, target.path, { at: 0, oldText: target.text, newText: before });
  if (!result.ok) {
    recordEdit(call.owner, target.path, before);
    return result;
  }
  return answer(call, `Last edit to ${call.shown} undone successfully. ${makeOutput(lfText(before), call.shown)}`);
}

/**
 * Runs one call of Anthropic's text editor tool through the host, in the version the model was given, with the texts
 * of Anthropic's reference editor (computer-use-demo's edit.py): `view` reads with the tools' boundary checks and
 * budgets; `create`, `str_replace`, `insert` and `undo_edit` are file operations of the patch engine, so they change
 * exactly the characters they name (tabs, CRLF and the BOM elsewhere stay as they are), are atomic, keep the file's
 * mode, stay inside the workspace and count toward the anti-blind-editing gate.
 */
export async function runTextEditor(editorHost: EditorHost, input: unknown, options: TextEditorOptions = {}): Promise<ToolResult> {
  const version = options.version ?? NEWEST_TEXT_EDITOR_VERSION;
  checkMaxCharacters(version, options.maxCharacters);
  const name = textEditorName(version);
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (typeof args.path !== 'string' || args.path === '')
    return fail('invalid_arguments', `Invalid arguments for ${name}: path must be a non-empty string`);
  const commands = textEditorCommands(version);
  const command = args.command;
  if (typeof command !== 'string' || !commands.includes(command)) {
    const given = typeof command === 'string' ? command : command === undefined || command === null ? 'None' : JSON.stringify(command);
    return fail(
      'invalid_arguments',
      `Unrecognized command ${given}. The allowed commands for the ${name} tool are: ${commands.join(', ')}`,
    );
  }
  const call: Call = { host: editorHost, owner: editorHost, version, name, options, args, path: args.path, shown: pythonPath(args.path) };
  switch (command) {
    case 'view':
      return view(call);
    case 'create':
      return create(call);
    case 'str_replace':
      return strReplace(call);
    case 'insert':
      return insert(call);
    default:
      return undoEdit(call);
  }
}
