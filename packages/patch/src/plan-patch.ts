import { ErrorCode, type FileBytes, type Workspace } from '@toolhost/core';
import { concurrencyOf, runBounded } from './bounded-concurrency.js';
import type { DiffEntry } from './diff-entry.js';
import { editPhrases, type EditPhrases } from './edit-phrases.js';
import type { ParsedPatch, PatchOperation } from './patch-syntax.js';
import { planAdd } from './plan-add.js';
import { failReport, isPresent, notAFile, type OperationReport, type PlanContext } from './plan-context.js';
import { planDelete } from './plan-delete.js';
import { planFileUpdate } from './plan-file-update.js';
import { PlanOverlay, type FileRecord } from './plan-overlay.js';
import { planReads, readAhead } from './plan-reads.js';
import { planTextEdit } from './plan-text-edit.js';
import { DIFF_UPDATE_RULES, type UpdateRules } from './plan-update.js';
import { resolveTarget } from './resolve-target.js';
import { sameBytes } from './text-document.js';

export type { PlanErrorCode } from './plan-overlay.js';
export type { OperationReport } from './plan-context.js';

/** One file write or removal to perform, with what to restore if the patch must be rolled back. */
export interface FileChange {
  /** Real workspace-relative path (symlinks followed), or the link itself for `removeLink`. */
  key: string;
  before: Uint8Array | undefined;
  beforeMode: number | undefined;
  /** The new content, whole or in pieces written one after another. */
  after: FileBytes | undefined;
  /** Mode for the written file (the original's, or the move source's). */
  mode: number | undefined;
  /**
   * The change first removes the symlink at `key`; with `after`, a regular file is then written in its place (never
   * through the link). Rollback re-creates the link from `linkTarget` where the workspace can.
   */
  removeLink?: boolean;
  /** Target text of the removed symlink (undefined when the workspace cannot read links). */
  linkTarget?: string;
  /** Folders the write creates (outermost first), removed again on rollback. */
  createsFolders?: string[];
}

/** A fully checked patch: what to write, what to report. */
export interface PatchPlan {
  ok: boolean;
  reports: OperationReport[];
  changes: FileChange[];
  diff: DiffEntry[];
  /** Summary lines in Codex order: `A p`, then `M p`, then `D p`. */
  summary: string[];
}

/** The writes and removals that turn the files as they were into the files as planned. */
function changesOf(files: Iterable<FileRecord>): FileChange[] {
  const changes: FileChange[] = [];
  for (const file of files) {
    if (sameBytes(file.before, file.bytes) && !file.removeLink) continue;
    changes.push({
      key: file.key,
      before: file.before,
      beforeMode: file.beforeMode,
      after: file.bytes,
      mode: file.mode,
      removeLink: file.removeLink,
      linkTarget: file.linkTarget,
      createsFolders: file.before === undefined && file.bytes !== undefined ? file.createsFolders : undefined,
    });
  }
  return changes;
}

/** Every workspace-relative key the patch may touch (for locking before planning). */
export async function patchKeys(workspace: Workspace, patch: ParsedPatch): Promise<string[]> {
  const paths = patch.operations.flatMap((operation) =>
    operation.kind === 'update' && operation.moveTo !== undefined ? [operation.path, operation.moveTo] : [operation.path],
  );
  // Resolved a few at a time, listed in patch order.
  const found: string[][] = [];
  await runBounded(paths.length, concurrencyOf(workspace), async (index) => {
    const target = await resolveTarget(workspace, paths[index]!);
    found[index] = target.ok ? [target.key, target.path] : [];
  });
  return found.flat();
}

/**
 * Plans the whole patch without writing: resolves every path, reads every file, matches every chunk, and checks
 * every rule. Operations apply in order over an in-memory overlay, so a later one sees what an earlier one did.
 */
export async function planPatch(
  workspace: Workspace,
  patch: ParsedPatch,
  phrases: EditPhrases = editPhrases(),
  rules: UpdateRules = DIFF_UPDATE_RULES,
): Promise<PatchPlan & { keys: string[] }> {
  const reads = planReads(workspace);
  await readAhead(reads, patch);
  const overlay = new PlanOverlay(reads, phrases);
  const context: PlanContext = { overlay, phrases, rules, diff: [], added: [], modified: [], deleted: [] };
  const reports: OperationReport[] = [];
  for (const operation of patch.operations) {
    const report: OperationReport = { operation, ok: false };
    reports.push(report);
    await planOperation(context, operation, report);
  }
  const changes = changesOf(overlay.records.values());
  const ok = reports.every((report) => report.ok);
  const { added, modified, deleted } = context;
  const summary = [...added.map((path) => `A ${path}`), ...modified.map((path) => `M ${path}`), ...deleted.map((path) => `D ${path}`)];
  return { ok, reports, changes: ok ? changes : [], diff: context.diff, summary, keys: overlay.keys };
}

/** Plans one operation over the overlay, recording how it fares in `report`. */
async function planOperation(context: PlanContext, operation: PatchOperation, report: OperationReport): Promise<void> {
  const { overlay, phrases } = context;
  const { shell, edit } = phrases.vocabulary;
  const source = await overlay.resolve(operation.path);
  if ('code' in source) return failReport(report, source.code, source.message);
  const target = source.target;
  const file = target.kind === 'missing' ? overlay.records.get(target.key) : await overlay.record(target);
  const present = isPresent(target, file);
  if (operation.kind === 'add') return planAdd(context, operation, target, present, report);
  if (!present || !file) {
    const message = `${target.path} does not exist${operation.kind === 'delete' ? '' : phrases.createMissing(target.path)}.`;
    return failReport(report, ErrorCode.PatchTargetMissing, message);
  }
  if (target.kind !== 'file' && target.kind !== 'missing') {
    const action =
      operation.kind === 'delete' ? `${edit} deletes only files; remove directories with ${shell}.` : `${edit} edits only regular files.`;
    return failReport(report, ErrorCode.ToolFailed, notAFile(target.path, target.kind, action));
  }
  if (operation.kind === 'delete') {
    await planDelete(context, target, file);
    report.ok = true;
    return;
  }
  // Update (possibly with a move), or a text edit.
  const decoded = overlay.documentOf(file, target.path);
  if ('message' in decoded) return failReport(report, ErrorCode.ToolFailed, decoded.message);
  if (operation.kind === 'replace' || operation.kind === 'insert')
    return planTextEdit(context, operation, target, file, decoded.document, report);
  return planFileUpdate(context, operation, target, file, decoded.document, report);
}
