import { diffEntryOf } from './diff-entry.js';
import type { EditPhrases } from './edit-phrases.js';
import type { PatchOperation } from './patch-syntax.js';
import { failReport, type OperationReport, type PlanContext, type PlanTarget } from './plan-context.js';
import type { FileRecord } from './plan-overlay.js';
import { encodeDocument, sameBytes, type TextDocument } from './text-document.js';
import { insertLines, replaceAt, replaceOnce, type TextEditResult } from './text-edits.js';

/** The replace or insert of a text editor command, on the document as planned so far. */
function applyTextEdit(
  operation: Extract<PatchOperation, { kind: 'replace' | 'insert' }>,
  document: TextDocument,
  path: string,
  phrases: EditPhrases,
): TextEditResult {
  if (operation.kind === 'insert') return insertLines(document, operation.afterLine, operation.text, phrases);
  return operation.at === undefined
    ? replaceOnce(document, operation.oldText, operation.newText, path, phrases)
    : replaceAt(document, operation.at, operation.oldText, operation.newText, path, phrases);
}

/** Plans a text editor's replace or insert on a decoded file. */
export function planTextEdit(
  context: PlanContext,
  operation: Extract<PatchOperation, { kind: 'replace' | 'insert' }>,
  target: PlanTarget,
  file: FileRecord,
  document: TextDocument,
  report: OperationReport,
): void {
  const edited = applyTextEdit(operation, document, target.path, context.phrases);
  if (!edited.ok) {
    failReport(report, edited.code, edited.message);
    return;
  }
  const newBytes = encodeDocument(edited.document);
  const unchanged = sameBytes(newBytes, file.bytes);
  file.bytes = newBytes;
  file.document = edited.document;
  context.diff.push(
    diffEntryOf({ path: target.path, operation: 'updated', oldLines: document.lines, newLines: edited.document.lines, unchanged }),
  );
  context.modified.push(target.path);
  report.ok = true;
}
