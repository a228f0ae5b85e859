import { joinFileBytes } from '@toolhost/core';
import type { FileRecord } from './plan-overlay.js';
import { binaryDiffEntry, diffEntryOf } from './diff-entry.js';
import type { PlanContext, PlanTarget } from './plan-context.js';
import { decodeText } from './text-document.js';

/** Plans a Delete File of a file known to be present: its whole text is the diff. */
export async function planDelete(context: PlanContext, target: PlanTarget, file: FileRecord): Promise<void> {
  const decoded = decodeText(joinFileBytes(file.bytes!));
  context.diff.push(
    decoded.ok
      ? diffEntryOf({ path: target.path, operation: 'deleted', oldLines: decoded.document.lines, newLines: [], unchanged: false })
      : binaryDiffEntry(target.path, 'deleted'),
  );
  await context.overlay.remove(target, file);
  context.deleted.push(target.path);
}
