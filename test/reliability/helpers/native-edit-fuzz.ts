import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import * as fc from 'fast-check';
import type { ToolResult } from '@toolhost/core';
import {
  changeLineArbitrary,
  checkFuzzedResult,
  lineArbitrary,
  pathArbitrary,
  treeArbitrary,
  writeFuzzTree,
  type FuzzSummary,
  type FuzzTree,
} from './patch-fuzz.js';
import { runNativeEdit, type NativeEdit, type NativeEditSurface, type NativeHost } from './native-paths.js';
import { describeResult } from './result-shape.js';
import { checksumTree, type Sandbox } from './sandbox.js';

const diffLines = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

/** A file's text in the tree; undefined for paths it lacks, `toString` and `constructor` included. */
const fileText = (tree: FuzzTree, path: string): string | undefined => (Object.hasOwn(tree.files, path) ? tree.files[path] : undefined);

/** A path of the tree (for coherent edits) or any fuzz path (new, hostile, noise). */
function targetPath(tree: FuzzTree): fc.Arbitrary<string> {
  const existing = Object.keys(tree.files);
  return existing.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...existing) }, { weight: 2, arbitrary: pathArbitrary })
    : pathArbitrary;
}

/** OpenAI apply_patch_call operations: creates, updates (with coherent or random V4A diffs, moves) and deletes. */
function operationEdit(surface: 'openai_apply_patch_call' | 'agents_editor', tree: FuzzTree): fc.Arbitrary<NativeEdit> {
  const path = targetPath(tree);
  const coherentDiff = (file: string) => {
    const lines = (fileText(tree, file) ?? '').split('\n').map((line) => line.replace(/\r$/, ''));
    return fc
      .tuple(fc.nat({ max: Math.max(0, lines.length - 1) }), lineArbitrary)
      .map(([index, replacement]) => diffLines(['@@', `-${lines[index] ?? ''}`, `+${replacement}`]));
  };
  // A line that names or frames another file, put anywhere in a diff: the operation must still touch only its own path.
  const markerLine = fc
    .tuple(
      fc.constantFrom('*** Delete File: ', '*** Add File: ', '*** Update File: ', '*** Move to: ', '*** End Patch', '*** Begin Patch'),
      path,
      fc.constantFrom('', ' ', '\t'),
    )
    .map(([marker, other, pad]) => (marker.endsWith(': ') ? `${pad}${marker}${other}` : `${pad}${marker}`));
  const withMarker = (lines: fc.Arbitrary<string[]>) =>
    fc
      .tuple(lines, markerLine, fc.nat())
      .map(([list, marker, at]) => [...list.slice(0, at % (list.length + 1)), marker, ...list.slice(at % (list.length + 1))]);
  const coherentLines = (file: string) => coherentDiff(file).map((text) => text.replace(/\n$/, '').split('\n'));
  const diff = (file: string) =>
    fc.oneof(
      { weight: 3, arbitrary: coherentDiff(file) },
      { weight: 3, arbitrary: fc.array(changeLineArbitrary, { maxLength: 6 }).map(diffLines) },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      { weight: 2, arbitrary: withMarker(coherentLines(file)).map(diffLines) },
    );
  const createLines = fc.array(lineArbitrary, { maxLength: 4 }).map((lines) => lines.map((line) => `+${line}`));
  return fc.oneof(
    fc
      .tuple(path, fc.oneof({ weight: 3, arbitrary: createLines }, { weight: 1, arbitrary: withMarker(createLines) }))
      .map(([file, lines]) => ({ surface, operation: { type: 'create_file' as const, path: file, diff: diffLines(lines) } })),
    path.chain((file) =>
      fc.tuple(diff(file), fc.option(pathArbitrary, { nil: undefined })).map(([text, moveTo]) => ({
        surface,
        operation: { type: 'update_file' as const, path: file, diff: text, ...(moveTo === undefined ? {} : { move_to: moveTo }) },
      })),
    ),
    path.map((file) => ({ surface, operation: { type: 'delete_file' as const, path: file } })),
  );
}

/** Anthropic text-editor inputs: create, str_replace (with text taken from the file or not), insert and view. */
function textEditorEdit(tree: FuzzTree): fc.Arbitrary<NativeEdit> {
  const surface = 'anthropic_text_editor' as const;
  const path = targetPath(tree);
  const text = fc.array(lineArbitrary, { maxLength: 4 }).chain((lines) => fc.constantFrom('\n', '\r\n').map((eol) => lines.join(eol)));
  const oldText = (file: string) => {
    const content = fileText(tree, file) ?? '';
    const piece = content.length
      ? fc.tuple(fc.nat(content.length - 1), fc.integer({ min: 1, max: 24 })).map(([start, length]) => content.slice(start, start + length))
      : fc.constant('');
    return fc.oneof(piece, lineArbitrary, fc.constant(''));
  };
  return fc.oneof(
    fc.tuple(path, text).map(([file, content]) => ({ surface, input: { command: 'create', path: file, file_text: content } })),
    path.chain((file) =>
      fc
        .tuple(oldText(file), text)
        .map(([oldStr, newStr]) => ({ surface, input: { command: 'str_replace', path: file, old_str: oldStr, new_str: newStr } })),
    ),
    fc
      .tuple(path, fc.integer({ min: -1, max: 9 }), text)
      .map(([file, line, inserted]) => ({ surface, input: { command: 'insert', path: file, insert_line: line, insert_text: inserted } })),
    fc
      .tuple(path, fc.option(fc.tuple(fc.integer({ min: -1, max: 9 }), fc.integer({ min: -1, max: 9 })), { nil: undefined }))
      .map(([file, range]) => ({ surface, input: { command: 'view', path: file, ...(range ? { view_range: range } : {}) } })),
  );
}

/** A tree with one native edit for it. */
export function nativeFuzzCase(surface: NativeEditSurface): fc.Arbitrary<[FuzzTree, NativeEdit]> {
  return treeArbitrary.chain((tree) =>
    (surface === 'anthropic_text_editor' ? textEditorEdit(tree) : operationEdit(surface, tree)).map(
      (edit) => [tree, edit] as [FuzzTree, NativeEdit],
    ),
  );
}

function withOutside(edit: NativeEdit, outside: string): NativeEdit {
  const expand = (value: unknown) => (typeof value === 'string' ? value.replaceAll('${OUTSIDE}', outside) : value);
  if (edit.surface === 'anthropic_text_editor') return { ...edit, input: { ...edit.input, path: expand(edit.input.path) } };
  const operation = { ...edit.operation, path: expand(edit.operation.path) as string };
  if ('move_to' in operation && operation.move_to) operation.move_to = expand(operation.move_to) as string;
  return { ...edit, operation };
}

function readWorkspaceFile(sandbox: Sandbox, path: string): string | undefined {
  const full = join(sandbox.workspace, path);
  try {
    return readFileSync(full, 'utf8');
  } catch {
    return undefined;
  }
}

/** The paths one native edit names: its path, and an update's move target. */
function namedPaths(edit: NativeEdit): string[] {
  const paths =
    edit.surface === 'anthropic_text_editor'
      ? [edit.input.path]
      : [edit.operation.path, 'move_to' in edit.operation ? edit.operation.move_to : undefined];
  return paths
    .filter((path): path is string => typeof path === 'string')
    .map((path) => posix.normalize(path.replace(/\\/g, '/')).replace(/\/$/, ''));
}

/** Files of the tree, other than the ones the edit names, whose bytes are no longer as the tree wrote them. */
function otherFilesChanged(sandbox: Sandbox, tree: FuzzTree, edit: NativeEdit): string[] {
  const named = new Set(namedPaths(edit));
  return Object.keys(tree.files).filter((path) => !named.has(path) && readWorkspaceFile(sandbox, path) !== tree.files[path]);
}

/** The ending most of the text's lines use (LF on a tie), as the engine gives new lines. */
function majorityEnding(text: string): '\n' | '\r\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** Python's str.expandtabs(8), written here apart from the adapter's as the model's own. */
function expandTabs(text: string): string {
  let out = '';
  let column = 0;
  for (const character of text) {
    if (character === '\t') {
      const width = 8 - (column % 8);
      out += ' '.repeat(width);
      column += width;
    } else {
      out += character;
      column = character === '\n' || character === '\r' ? 0 : column + 1;
    }
  }
  return out;
}

/** Leading spaces as tabs, one per 8 columns, as the editor writes new lines of a tab-indented file. */
const retab = (line: string) => {
  const lead = /^ */.exec(line)![0].length;
  return /^[ \t]*$/.test(line) ? line : '\t'.repeat(Math.floor(lead / 8)) + ' '.repeat(lead % 8) + line.slice(lead);
};

/** Whether more lines start with a tab than with two spaces. */
const indentsWithTabs = (text: string) => {
  const lines = text.split('\n');
  return lines.filter((line) => line.startsWith('\t')).length > lines.filter((line) => line.startsWith('  ')).length;
};

/** The offset in the raw text of an offset in its CRLF-as-LF reading (a CRLF's LF maps to its CR). */
function rawOffset(raw: string, lfOffset: number): number {
  let raws = 0;
  for (let seen = 0; seen < lfOffset; seen++) raws += raw.startsWith('\r\n', raws) ? 2 : 1;
  return raws;
}

/**
 * What an accepted text-editor edit must have written, byte for byte, by a model of Anthropic's reference editor
 * without its losses: `create` writes file_text as it is (and never replaces a file); `str_replace` without tabs
 * swaps the one occurrence in the file read with CRLF as LF, and nothing else, new line breaks in the file's majority
 * ending (with tabs, the file as the reference shows it is the reference's result where the matched line has no tab
 * after the match); `insert` splits the file and the text on LF as the reference does and puts the text's lines after
 * line `insert_line`, in the file's ending, indented with tabs in a tab-indented file when the text has no tab.
 */
function textEditorProblems(sandbox: Sandbox, tree: FuzzTree, input: Record<string, unknown>, result: ToolResult): string[] {
  // The workspace reads a backslash as a separator and drops empty and `.` segments: look the file up as it does.
  const path = posix.normalize((input.path as string).replace(/\\/g, '/')).replace(/\/$/, '');
  const before = fileText(tree, path);
  if (input.command === 'create' && before !== undefined && result.ok) return [`create replaced the existing ${path}`];
  if (input.command === 'view' || !result.ok || (before === undefined && input.command !== 'create')) return [];
  const after = readWorkspaceFile(sandbox, path);
  if (after === undefined) return [`${path} is gone after ${String(input.command)}`];
  const expectation = (expected: string) =>
    after === expected ? [] : [`${String(input.command)} wrote ${JSON.stringify(after)}, expected ${JSON.stringify(expected)}`];
  if (input.command === 'create') return expectation(input.file_text as string);
  if (before === undefined) return [];
  const eol = majorityEnding(before);
  const lf = (text: string) => text.replace(/\r\n/g, '\n');
  if (input.command === 'str_replace') {
    const oldLf = lf(input.old_str as string);
    const newLf = lf(input.new_str as string);
    if (!before.includes('\t') && !oldLf.includes('\t') && !newLf.includes('\t')) {
      const at = lf(before).indexOf(oldLf);
      const start = rawOffset(before, at);
      const end = rawOffset(before, at + oldLf.length);
      return expectation(before.slice(0, start) + newLf.split('\n').join(eol) + before.slice(end));
    }
    const seen = expandTabs(lf(before));
    const search = expandTabs(oldLf);
    const at = seen.indexOf(search);
    const rest = lf(before).split('\n')[lf(before).slice(0, at).split('\n').length - 1 + oldLf.split('\n').length - 1] ?? '';
    if (at < 0 || newLf.includes('\t') || rest.includes('\t')) return [];
    const shown = expandTabs(lf(after));
    const expected = seen.slice(0, at) + newLf + seen.slice(at + search.length);
    return shown === expected ? [] : [`str_replace shows ${JSON.stringify(shown)}, the reference ${JSON.stringify(expected)}`];
  }
  if (input.command === 'insert') {
    const text = lf(input.insert_text as string);
    let pieces = text.split('\n');
    if (!text.includes('\t') && indentsWithTabs(before)) pieces = pieces.map(retab);
    const at = input.insert_line as number;
    const count = before.split('\n').length;
    if (at === count) return expectation(before + eol + pieces.join(eol));
    let offset = 0;
    for (let line = 0; line < at; line++) offset = before.indexOf('\n', offset) + 1;
    return expectation(before.slice(0, offset) + pieces.join(eol) + eol + before.slice(offset));
  }
  return [];
}

/**
 * fast-check property over one native edit path: it never throws, answers with a well-formed result and never
 * internal_error, never changes a byte outside, a rejected edit (or any view) leaves every workspace byte as it was,
 * and an accepted text-editor edit writes what a reference model says.
 */
export async function runNativeEditFuzz(
  host: NativeHost,
  surface: NativeEditSurface,
  sandbox: Sandbox,
  numRuns: number,
  seed?: number,
): Promise<FuzzSummary> {
  const sentinel = sandbox.checksumOutside();
  const summary: FuzzSummary = { runs: 0, accepted: 0, rejected: 0, outsideChanged: false, bytesOutside: 0 };
  const property = fc.asyncProperty(nativeFuzzCase(surface), async ([tree, rawEdit]) => {
    const edit = withOutside(rawEdit, sandbox.outside);
    writeFuzzTree(sandbox, tree);
    const before = checksumTree(sandbox.workspace);
    summary.runs++;
    let result: ToolResult;
    try {
      result = await runNativeEdit(host, edit);
    } catch (error) {
      throw new Error(`${surface} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    checkFuzzedResult(result, sandbox, sentinel, summary);
    const viewed = edit.surface === 'anthropic_text_editor' && edit.input.command === 'view';
    if (result.ok) summary.accepted++;
    else summary.rejected++;
    if ((!result.ok || viewed) && checksumTree(sandbox.workspace) !== before)
      throw new Error(`${viewed ? 'a view' : 'a rejected edit'} changed the workspace: ${describeResult(result)}`);
    const untouched = otherFilesChanged(sandbox, tree, edit);
    if (untouched.length)
      throw new Error(`an edit of ${namedPaths(edit).join(', ')} changed ${untouched.join(', ')}: ${describeResult(result)}`);
    if (edit.surface === 'anthropic_text_editor') {
      const wrong = textEditorProblems(sandbox, tree, edit.input, result);
      if (wrong.length) throw new Error(wrong.join('; '));
    } else if (result.ok && edit.operation.type === 'delete_file' && existsSync(join(sandbox.workspace, edit.operation.path))) {
      throw new Error(`${edit.operation.path} still exists after an accepted delete_file`);
    }
  });
  const details = await fc.check(property, { numRuns, seed, endOnFailure: false });
  if (details.failed) {
    summary.failure = `seed ${details.seed}, path ${details.counterexamplePath}: ${String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance)}\ncounterexample: ${JSON.stringify(details.counterexample)}`;
  }
  return summary;
}
