// Differential test against the reference: Codex's own apply_patch (the native binary of the `@openai/codex`
// devDependency, run in its hidden apply_patch mode) and toolhost's apply_patch get the same random files and patches;
// they must leave the same bytes, or both refuse. The only outcomes allowed to differ are the listed deviations:
// toolhost keeps a missing final newline (lossless), and refuses a chunk whose context matches several places where
// the reference takes the first (stricter for safety).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMemoryWorkspace, ErrorCode } from '@toolhost/core';
import { skipWhen } from '../../../test/skip-reason.js';
import { applyPatch } from './apply-patch.js';
import { locateCodexBinary, runReferenceApplyPatch, type FileTree } from './__fixtures__/codex-reference-binary.js';

const located = locateCodexBinary();
const binary = 'path' in located ? located.path : undefined;

// Few distinct lines, so repeats (ambiguity) and near misses are common; none has outer whitespace or typographic
// punctuation, so every match is an exact one and no indentation is rewritten.
const lineArb = fc.oneof(fc.constantFrom('a', 'b', 'c', 'x = 1', 'return x', '}', ''), fc.stringMatching(/^[a-z]{1,5}$/));

const fileArb = fc.record({
  lines: fc.array(lineArb, { minLength: 0, maxLength: 12 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});
type FileSpec = { lines: string[]; crlf: boolean; finalNewline: boolean };

const editArb = fc.record({
  start: fc.nat(14),
  before: fc.nat(2),
  removed: fc.nat(2),
  after: fc.nat(2),
  added: fc.array(lineArb, { maxLength: 2 }),
  anchor: fc.boolean(),
  blankAfter: fc.boolean(),
  // A wrong context line turns the chunk into one neither side can place.
  corrupt: fc.boolean(),
});
type EditSpec = {
  start: number;
  before: number;
  removed: number;
  after: number;
  added: string[];
  anchor: boolean;
  blankAfter: boolean;
  corrupt: boolean;
};

const wrapperArb = fc.constantFrom('none', 'heredoc', 'padded markers', 'trailing newline');

function render(file: FileSpec): string {
  if (file.lines.length === 0) return '';
  const eol = file.crlf ? '\r\n' : '\n';
  return file.lines.join(eol) + (file.finalNewline ? eol : '');
}

/** The lines of one Update File body for `edits` on `lines`, in file order, never overlapping. */
function updateBody(lines: readonly string[], edits: readonly EditSpec[]): string[] {
  const body: string[] = [];
  let floor = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const start = Math.max(floor, Math.min(edit.start, lines.length));
    const before = Math.min(edit.before, lines.length - start);
    const removed = Math.min(edit.removed, lines.length - start - before);
    const after = Math.min(edit.after, lines.length - start - before - removed);
    const old = before + removed + after;
    const end = start + old;
    // An @@ anchor names the line just above the chunk; a chunk of only added lines has none (the reference puts
    // those at the end of the file whatever its anchor says, toolhost right after it: a listed deviation).
    const anchor = edit.anchor && old > 0 && start > floor ? lines[start - 1] : undefined;
    body.push(anchor === undefined ? '@@' : `@@ ${anchor}`);
    const chunk = [
      ...lines.slice(start, start + before).map((text) => ` ${text}`),
      ...lines.slice(start + before, start + before + removed).map((text) => `-${text}`),
      ...edit.added.map((text) => `+${text}`),
      ...lines.slice(start + before + removed, end).map((text) => ` ${text}`),
    ];
    if (edit.corrupt && chunk.length > 0) chunk[0] = `${chunk[0]}!`;
    body.push(...(chunk.length > 0 ? chunk : ['+']));
    if (old > 0 && end === lines.length) body.push('*** End of File');
    if (edit.blankAfter) body.push('');
    floor = end;
  }
  return body;
}

function wrap(body: readonly string[], wrapper: string): string {
  const patch = ['*** Begin Patch', ...body, '*** End Patch'];
  switch (wrapper) {
    case 'heredoc':
      return ["<<'EOF'", ...patch, 'EOF', ''].join('\n');
    case 'padded markers':
      return [' *** Begin Patch ', ...body, '*** End Patch  '].join('\n');
    case 'trailing newline':
      return `${patch.join('\n')}\n`;
    default:
      return patch.join('\n');
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

describe(
  'apply_patch against the reference binary (Codex apply-patch)',
  skipWhen(binary === undefined ? (located as { missing: string }).missing : undefined, 'npm install'),
  () => {
    it('leaves the same bytes as the reference, or both refuse, on random files and patches', async () => {
      await fc.assert(
        fc.asyncProperty(
          fileArb,
          fc.array(editArb, { minLength: 1, maxLength: 3 }),
          wrapperArb,
          fc.constantFrom('update', 'update and add', 'update and delete other', 'delete missing'),
          async (file, edits, wrapper, shape) => {
            const files: Record<string, string> = { 'f.txt': render(file), 'other.txt': 'other\n' };
            const body = ['*** Update File: f.txt', ...updateBody(file.lines, edits)];
            if (shape === 'update and add') body.push('*** Add File: dir/new.txt', '+new', '+');
            if (shape === 'update and delete other') body.push('*** Delete File: other.txt');
            if (shape === 'delete missing') body.push('*** Delete File: missing.txt');
            const patch = wrap(body, wrapper);

            const tree: FileTree = Object.fromEntries(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]));
            const reference = runReferenceApplyPatch(binary!, tree, patch);
            const referenceFiles = Object.fromEntries(Object.entries(reference.files).map(([path, data]) => [path, decoder.decode(data)]));
            const workspace = createMemoryWorkspace(files);
            const result = await applyPatch(workspace, patch);
            const ours = workspace.snapshot();
            const context = `patch:\n${patch}\nfile: ${JSON.stringify(files['f.txt'])}\nreference (exit ${reference.exitCode}): ${reference.stderr}${JSON.stringify(referenceFiles)}\ntoolhost: ${JSON.stringify(result)}`;

            if (reference.exitCode !== 0) {
              // The reference refused. It writes operations in order and stops at the first failure; toolhost writes
              // nothing (all or nothing, a listed deviation), so toolhost refuses too and leaves the files as they were.
              expect(result.ok, context).toBe(false);
              expect(ours, context).toEqual(files);
              return;
            }
            if (!result.ok) {
              // Stricter for safety (listed): context matching several places is refused, where the reference takes the first.
              expect(result.error?.code, context).toBe(ErrorCode.PatchAmbiguous);
              return;
            }
            const lossless = { ...ours };
            // Lossless (listed): a last line without a newline that the patch did not edit keeps having none.
            const edited = lossless['f.txt'];
            if (edited !== undefined && edited !== '' && !file.finalNewline && !/\n$/.test(edited))
              lossless['f.txt'] = edited + (edited.includes('\r\n') ? '\r\n' : '\n');
            expect(lossless, context).toEqual(referenceFiles);
          },
        ),
        { numRuns: Number(process.env.CODEX_DIFF_RUNS ?? 80) },
      );
    }, 180_000);
  },
);
