import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import * as fc from 'fast-check';
import type { ToolResult } from '@toolhost/core';
import { changeLineArbitrary, checkFuzzedResult, lineArbitrary, pathArbitrary, treeArbitrary, writeFuzzTree, type FuzzSummary, type FuzzTree } from './patch-fuzz.js';
import { runNativeEdit, type NativeEdit, type NativeEditSurface, type NativeHost } from './native-paths.js';
import { describeResult } from './result-shape.js';
import { checksumTree, type Sandbox } from './sandbox.js';

const diffLines = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

/** A file's text in the tree; undefined for paths it lacks, `toString` and `constructor` included. */
const fileText = (tree: FuzzTree, path: string): string | undefined => (Object.hasOwn(tree.files, path) ? tree.files[path] : undefined);

/** A path of the tree (for coherent edits) or any fuzz path (new, hostile, noise). */
function targetPath(tree: FuzzTree): fc.Arbitrary<string> {
  const existing = Object.keys(tree.files);
  return existing.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...existing) }, { weight: 2, arbitrary: pathArbitrary }) : pathArbitrary;
}

/** OpenAI apply_patch_call operations: creates, updates (with coherent or random V4A diffs, moves) and deletes. */
function operationEdit(surface: 'openai_apply_patch_call' | 'agents_editor', tree: FuzzTree): fc.Arbitrary<NativeEdit> {
  const path = targetPath(tree);
  const coherentDiff = (file: string) => {
    const lines = (fileText(tree, file) ?? '').split('\n').map((line) => line.replace(/\r$/, ''));
    return fc.tuple(fc.nat({ max: Math.max(0, lines.length - 1) }), lineArbitrary).map(([index, replacement]) => diffLines(['@@', `-${lines[index] ?? ''}`, `+${replacement}`]));
  };
  const diff = (file: string) => fc.oneof(coherentDiff(file), fc.array(changeLineArbitrary, { maxLength: 6 }).map(diffLines), fc.string({ maxLength: 40 }));
  return fc.oneof(
    fc.tuple(path, fc.array(lineArbitrary, { maxLength: 4 })).map(([file, lines]) => ({ surface, operation: { type: 'create_file' as const, path: file, diff: diffLines(lines.map((line) => `+${line}`)) } })),
    path.chain((file) => fc.tuple(diff(file), fc.option(pathArbitrary, { nil: undefined })).map(([text, moveTo]) => ({ surface, operation: { type: 'update_file' as const, path: file, diff: text, ...(moveTo === undefined ? {} : { move_to: moveTo }) } }))),
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
    const piece = content.length ? fc.tuple(fc.nat(content.length - 1), fc.integer({ min: 1, max: 24 })).map(([start, length]) => content.slice(start, start + length)) : fc.constant('');
    return fc.oneof(piece, lineArbitrary, fc.constant(''));
  };
  return fc.oneof(
    fc.tuple(path, text).map(([file, content]) => ({ surface, input: { command: 'create', path: file, file_text: content } })),
    path.chain((file) => fc.tuple(oldText(file), text).map(([oldStr, newStr]) => ({ surface, input: { command: 'str_replace', path: file, old_str: oldStr, new_str: newStr } }))),
    fc.tuple(path, fc.integer({ min: -1, max: 9 }), text).map(([file, line, inserted]) => ({ surface, input: { command: 'insert', path: file, insert_line: line, insert_text: inserted } })),
    fc.tuple(path, fc.option(fc.tuple(fc.integer({ min: -1, max: 9 }), fc.integer({ min: -1, max: 9 })), { nil: undefined })).map(([file, range]) => ({ surface, input: { command: 'view', path: file, ...(range ? { view_range: range } : {}) } })),
  );
}

/** A tree with one native edit for it. */
export function nativeFuzzCase(surface: NativeEditSurface): fc.Arbitrary<[FuzzTree, NativeEdit]> {
  return treeArbitrary.chain((tree) => (surface === 'anthropic_text_editor' ? textEditorEdit(tree) : operationEdit(surface, tree)).map((edit) => [tree, edit] as [FuzzTree, NativeEdit]));
}

function withOutside(edit: NativeEdit, outside: string): NativeEdit {
  const expand = (value: unknown) => (typeof value === 'string' ? value.replaceAll('${OUTSIDE}', outside) : value);
  if (edit.surface === 'anthropic_text_editor') return { ...edit, input: { ...edit.input, path: expand(edit.input.path) } };
  const operation = { ...edit.operation, path: expand(edit.operation.path) as string };
  if ('move_to' in operation && operation.move_to) operation.move_to = expand(operation.move_to) as string;
  return { ...edit, operation };
}

const normalize = (text: string) => text.replace(/\r\n/g, '\n');

function readWorkspaceFile(sandbox: Sandbox, path: string): string | undefined {
  const full = join(sandbox.workspace, path);
  try {
    return readFileSync(full, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What an accepted text-editor edit must have written, by a reference model over the file's text (line endings
 * compared as `\n`): `str_replace` swaps the one occurrence, `insert` adds the lines after `insert_line`.
 */
function textEditorProblems(sandbox: Sandbox, tree: FuzzTree, input: Record<string, unknown>, result: ToolResult): string[] {
  // The workspace reads a backslash as a separator and drops empty and `.` segments: look the file up as it does.
  const path = posix.normalize((input.path as string).replace(/\\/g, '/')).replace(/\/$/, '');
  const before = fileText(tree, path);
  if (input.command === 'view' || !result.ok || (before === undefined && input.command !== 'create')) return [];
  const after = readWorkspaceFile(sandbox, path);
  if (after === undefined) return [`${path} is gone after ${String(input.command)}`];
  const problems: string[] = [];
  if (input.command === 'create') {
    // create writes file_text's lines with a final line ending, like the Add File section it becomes.
    const lines = normalize(input.file_text as string).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const expected = lines.map((line) => `${line}\n`).join('');
    return after === expected ? [] : [`create wrote ${JSON.stringify(after)}, expected ${JSON.stringify(expected)}`];
  }
  if (before === undefined) return problems;
  if (before.includes('\r\n') && !before.replace(/\r\n/g, '').includes('\n') && after.replace(/\r\n/g, '').includes('\n')) problems.push(`${path} lost its CRLF line endings`);
  if (input.command === 'str_replace') {
    const text = normalize(before);
    const oldText = normalize(input.old_str as string);
    const at = text.indexOf(oldText);
    const expected = text.slice(0, at) + normalize(input.new_str as string) + text.slice(at + oldText.length);
    // A file without a final line ending may gain one: compare without it.
    if (normalize(after).replace(/\n$/, '') !== expected.replace(/\n$/, '')) problems.push(`str_replace wrote ${JSON.stringify(normalize(after))}, expected ${JSON.stringify(expected)}`);
  }
  if (input.command === 'insert') {
    const lines = normalize(before).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const inserted = input.insert_text === '' ? [''] : normalize(input.insert_text as string).replace(/\n$/, '').split('\n');
    const expected = [...lines.slice(0, input.insert_line as number), ...inserted, ...lines.slice(input.insert_line as number)].join('\n');
    if (normalize(after).replace(/\n$/, '') !== expected) problems.push(`insert wrote ${JSON.stringify(normalize(after))}, expected ${JSON.stringify(expected)}`);
  }
  return problems;
}

/**
 * fast-check property over one native edit path: it never throws, answers with a well-formed result and never
 * internal_error, never changes a byte outside, a rejected edit (or any view) leaves every workspace byte as it was,
 * and an accepted text-editor edit writes what a reference model says.
 */
export async function runNativeEditFuzz(host: NativeHost, surface: NativeEditSurface, sandbox: Sandbox, numRuns: number, seed?: number): Promise<FuzzSummary> {
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
      throw new Error(`${surface} threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    checkFuzzedResult(result, sandbox, sentinel, summary);
    const viewed = edit.surface === 'anthropic_text_editor' && edit.input.command === 'view';
    if (result.ok) summary.accepted++;
    else summary.rejected++;
    if ((!result.ok || viewed) && checksumTree(sandbox.workspace) !== before) throw new Error(`${viewed ? 'a view' : 'a rejected edit'} changed the workspace: ${describeResult(result)}`);
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
