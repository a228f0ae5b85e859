import { ErrorCode } from '@toolhost/core';
import { diffEntryOf } from './diff-entry.js';
import type { PatchOperation } from './patch-syntax.js';
import { failReport, notAFile, type OperationReport, type PlanContext, type PlanTarget } from './plan-context.js';
import { encodeText, TextDocument } from './text-document.js';

/** Plans an Add File: refused where something already is, else the new file joins the overlay. */
export async function planAdd(
  context: PlanContext,
  operation: Extract<PatchOperation, { kind: 'add' }>,
  target: PlanTarget,
  present: boolean,
  report: OperationReport,
): Promise<void> {
  const { phrases } = context;
  if (present) {
    const what =
      target.kind === 'file' || target.kind === 'missing'
        ? 'already exists'
        : notAFile(target.path, target.kind, 'cannot add a file there');
    if (phrases.vocabulary.edits === 'text_editor' && what === 'already exists') {
      failReport(
        report,
        ErrorCode.PatchTargetExists,
        `File already exists at: ${operation.path}. Cannot overwrite files using command \`create\`.`,
      );
    } else
      failReport(
        report,
        ErrorCode.PatchTargetExists,
        `${target.path} ${what === 'already exists' ? 'already exists' : `is taken: ${what}`}; ${phrases.changeExisting(target.path)}`,
      );
    return;
  }
  const text = operation.content;
  const created = await context.overlay.record({ ...target, kind: 'missing' });
  created.bytes = encodeText(text);
  created.document = new TextDocument(false, text);
  // A link this patch deleted keeps `removeLink`: commit unlinks it, then writes a regular file in its place.
  context.diff.push(
    diffEntryOf({ path: target.path, operation: 'created', oldLines: [], newLines: created.document.lines, unchanged: false }),
  );
  context.added.push(target.path);
  report.ok = true;
}
