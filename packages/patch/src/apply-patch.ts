import {
  ErrorCode,
  errorResult,
  okResult,
  type ErrorCode as ErrorCodeType,
  type ToolResult,
  type ToolVocabulary,
  type Workspace,
} from '@toolhost/core';
import { commitChanges } from './commit-changes.js';
import { recoverInterruptedEdits } from './recover-edits.js';
import { editPhrases, type EditPhrases } from './edit-phrases.js';
import { formatFailureReport } from './failure-report.js';
import { checkFileOperations, type FileOperation } from './file-operation.js';
import { parsePatch } from './parse-patch.js';
import type { ParsedPatch } from './patch-syntax.js';
import { sharedPathLocks, type PathLocks } from './path-locks.js';
import { patchKeys, planPatch } from './plan-patch.js';
import { CODEX_UPDATE_RULES, DIFF_UPDATE_RULES, type UpdateRules } from './plan-update.js';

/** Options of {@link applyPatch} and {@link applyFileOperations}. */
export interface ApplyPatchOptions {
  /** Lock table serializing concurrent patches on the same files (default: one shared by the whole process). */
  locks?: PathLocks;
  /** The tools the model was given, for the texts of a refusal (default: toolhost's own). */
  vocabulary?: ToolVocabulary;
}

const MAX_LOCK_ATTEMPTS = 3;

/**
 * Applies patch text to a workspace atomically: parse, resolve, read, match and check everything first, then write
 * (temp file + rename), restoring every written file if a write fails. Returns the apply_patch tool result.
 */
export async function applyPatch(workspace: Workspace, text: string, options: ApplyPatchOptions = {}): Promise<ToolResult> {
  const parsed = parsePatch(text);
  if (!parsed.ok) return errorResult(ErrorCode.PatchParseError, parsed.message, { line: parsed.line });
  return applyParsed(workspace, parsed.patch, options, CODEX_UPDATE_RULES);
}

/**
 * Applies file operations given as data (see {@link FileOperation}) with the guarantees of {@link applyPatch}: all or
 * nothing, each operation touching only the paths it names. Diffs are read first; a diff line that names or frames
 * another file refuses the whole call.
 */
export async function applyFileOperations(
  workspace: Workspace,
  operations: readonly FileOperation[],
  options: ApplyPatchOptions = {},
): Promise<ToolResult> {
  const checked = checkFileOperations(operations, editPhrases(options.vocabulary));
  if (!checked.ok) {
    // A diff's own line numbers need saying that nothing was written; a refused path says so by itself.
    const message = checked.code === ErrorCode.PatchParseError ? `Nothing was changed: ${checked.message}` : checked.message;
    return errorResult(checked.code, message, checked.line === undefined ? undefined : { line: checked.line });
  }
  return applyParsed(workspace, { operations: checked.operations }, options, DIFF_UPDATE_RULES);
}

async function applyParsed(workspace: Workspace, patch: ParsedPatch, options: ApplyPatchOptions, rules: UpdateRules): Promise<ToolResult> {
  const recovered = await recoverInterruptedEdits(workspace);
  const result = await applyUnrecovered(workspace, patch, options, rules);
  return recovered.length === 0 ? result : withNotes(result, recovered);
}

/** The result with one line first for each interrupted edit settled before it. */
function withNotes(result: ToolResult, notes: readonly string[]): ToolResult {
  const prefix = notes
    .map(
      (note) => `${note}
`,
    )
    .join('');
  if (result.ok) return { ...result, output: `${prefix}${result.output}` };
  return errorResult(result.error.code, `${prefix}${result.error.message}`, result.data);
}

async function applyUnrecovered(
  workspace: Workspace,
  patch: ParsedPatch,
  options: ApplyPatchOptions,
  rules: UpdateRules,
): Promise<ToolResult> {
  try {
    return await applyChecked(workspace, patch, options, editPhrases(options.vocabulary), rules);
  } catch (error) {
    // A file-system error while reading or checking (e.g. a file vanishing mid-call): nothing was written yet.
    const reason = error instanceof Error ? error.message : String(error);
    return errorResult(
      ErrorCode.ToolFailed,
      `The patch was not applied and no file was changed: ${reason}. Check the paths and try again.`,
    );
  }
}

async function applyChecked(
  workspace: Workspace,
  patch: ParsedPatch,
  options: ApplyPatchOptions,
  phrases: EditPhrases,
  rules: UpdateRules,
): Promise<ToolResult> {
  const locks = options.locks ?? sharedPathLocks;
  const scope = (key: string) => `${workspace.root}\u0000${key}`;
  let keys = await patchKeys(workspace, patch);
  for (let attempt = 1; ; attempt++) {
    const release = await locks.acquire(keys.map(scope));
    try {
      const plan = await planPatch(workspace, patch, phrases, rules);
      const held = new Set(keys);
      if (!plan.keys.every((key) => held.has(key))) {
        // A path changed between locking and planning (e.g. a symlink was re-pointed): lock the union and plan again.
        // Never commit while holding fewer keys than the plan touches; if the paths keep changing, give up unwritten.
        if (attempt >= MAX_LOCK_ATTEMPTS) {
          return errorResult(
            ErrorCode.ToolFailed,
            `The patch was not applied and no file was changed: the files it touches kept resolving to different paths while it was checked (${MAX_LOCK_ATTEMPTS} tries; symlinks or folders are being changed by something else). Wait for that to finish and send the patch again.`,
          );
        }
        keys = [...new Set([...keys, ...plan.keys])];
        continue;
      }
      if (!plan.ok) {
        const first = plan.reports.find((report) => !report.ok)!;
        const code: ErrorCodeType = first.code ?? ErrorCode.ToolFailed;
        return errorResult(code, formatFailureReport(plan.reports, phrases), {
          operations: plan.reports.map((report) => ({
            kind: report.operation.kind,
            path: report.operation.path,
            ok: report.ok,
            ...(report.code ? { code: report.code } : {}),
            ...(report.chunks ? { chunks: report.chunks.map((chunk) => chunk.state) } : {}),
          })),
        });
      }
      const committed = await commitChanges(workspace, plan.changes);
      if (!committed.ok) return errorResult(ErrorCode.ToolFailed, `The patch was not applied: ${committed.message}`);
      return okResult(`Success. Updated the following files:\n${plan.summary.join('\n')}\n`, { diff: plan.diff });
    } finally {
      release();
    }
  }
}
