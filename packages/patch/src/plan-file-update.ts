import { ErrorCode } from '@toolhost/core';
import { diffEntryOf } from './diff-entry.js';
import type { PatchOperation } from './patch-syntax.js';
import { failReport, isPresent, type OperationReport, type PlanContext, type PlanTarget } from './plan-context.js';
import type { FileRecord } from './plan-overlay.js';
import { planUpdate, type UpdatePlan, type UpdateRules } from './plan-update.js';
import { encodeDocument, sameBytes, type TextDocument } from './text-document.js';
import { applyV4aUpdate } from './v4a-diff.js';

type UpdateOperation = Extract<PatchOperation, { kind: 'update' }>;

/** The update's plan: its chunks matched, or its V4A diff applied as the Agents SDK applies it (a syntax error as a message). */
function planOperationUpdate(operation: UpdateOperation, document: TextDocument, rules: UpdateRules): UpdatePlan | { message: string } {
  if (operation.v4aDiff !== undefined) {
    const applied = applyV4aUpdate(document, operation.v4aDiff, operation.path);
    if (applied.ok) return { ok: true, chunks: applied.chunks, document: applied.document, regions: applied.regions };
    return applied.kind === 'parse' ? { message: applied.message } : { ok: false, chunks: applied.chunks };
  }
  return operation.chunks.length > 0 ? planUpdate(document, operation.chunks, rules) : { ok: true, chunks: [], document, regions: [] };
}

/**
 * Where a `*** Move to:` takes the file: the destination's record (the source's content leaves it), or undefined when
 * the move is refused (the report says why). Without a move, or a move onto itself, the file stays where it is.
 */
async function moveDestination(
  context: PlanContext,
  operation: UpdateOperation,
  target: PlanTarget,
  file: FileRecord,
  report: OperationReport,
): Promise<{ path: string; record: FileRecord } | undefined> {
  const { overlay } = context;
  const stay = { path: target.path, record: file };
  if (operation.moveTo === undefined) return stay;
  const moved = await overlay.resolve(operation.moveTo);
  if ('code' in moved) {
    failReport(report, moved.code, `*** Move to: ${moved.message}`);
    return undefined;
  }
  if (moved.target.key === target.key) return stay;
  const movedExisting = moved.target.kind === 'missing' ? overlay.records.get(moved.target.key) : await overlay.record(moved.target);
  if (isPresent(moved.target, movedExisting)) {
    failReport(
      report,
      ErrorCode.PatchTargetExists,
      `cannot move ${target.path} to ${moved.target.path}: it already exists. Delete it first or pick another name.`,
    );
    return undefined;
  }
  if (target.isLink) {
    const { edit, shell } = context.phrases.vocabulary;
    failReport(
      report,
      ErrorCode.ToolFailed,
      `${target.path} is a symlink; ${edit} does not move symlinks. Move it with ${shell}, or edit its target ${target.key}.`,
    );
    return undefined;
  }
  const record = await overlay.record({ ...moved.target, kind: 'missing' });
  record.mode = file.mode;
  file.bytes = undefined;
  file.document = undefined;
  return { path: moved.target.path, record };
}

/** Plans an Update File (its chunks or V4A diff, then any move) on a decoded file. */
export async function planFileUpdate(
  context: PlanContext,
  operation: UpdateOperation,
  target: PlanTarget,
  file: FileRecord,
  document: TextDocument,
  report: OperationReport,
): Promise<void> {
  const planned = planOperationUpdate(operation, document, context.rules);
  if ('message' in planned) {
    failReport(report, ErrorCode.PatchParseError, planned.message);
    return;
  }
  report.chunks = planned.chunks;
  if (!planned.ok || !planned.document) {
    const first = planned.chunks.find((status) => status.state !== 'applies');
    failReport(
      report,
      first?.state === 'ambiguous' ? ErrorCode.PatchAmbiguous : ErrorCode.PatchContextNotFound,
      'some chunks did not match',
    );
    return;
  }
  const newBytes = planned.document === document ? file.bytes! : encodeDocument(planned.document);
  const destination = await moveDestination(context, operation, target, file, report);
  if (!destination) return;
  const isMove = destination.record !== file;
  const unchanged = !isMove && sameBytes(newBytes, file.bytes);
  destination.record.bytes = newBytes;
  destination.record.document = planned.document;
  context.diff.push(
    diffEntryOf({
      path: destination.path,
      operation: isMove ? 'moved' : 'updated',
      oldPath: isMove ? target.path : undefined,
      oldLines: document.lines,
      newLines: planned.newLines ?? planned.document.lines,
      regions: planned.regions,
      unchanged,
    }),
  );
  context.modified.push(destination.path);
  report.ok = true;
}
