import type { PatchOperation } from './patch-syntax.js';
import type { OperationReport } from './plan-patch.js';
import type { ChunkStatus } from './plan-update.js';

function header(operation: PatchOperation): string {
  switch (operation.kind) {
    case 'add':
      return `*** Add File: ${operation.path}`;
    case 'delete':
      return `*** Delete File: ${operation.path}`;
    default:
      return `*** Update File: ${operation.path}${operation.moveTo !== undefined ? ` (Move to: ${operation.moveTo})` : ''}`;
  }
}

function chunkLabel(status: ChunkStatus, index: number): string {
  const anchors = status.chunk.anchors.length ? ` @@ ${status.chunk.anchors.join(' / @@ ')}` : '';
  return `chunk ${index + 1} (patch line ${status.chunk.line}${anchors})`;
}

function chunkLine(status: ChunkStatus, index: number): string {
  const label = chunkLabel(status, index);
  if (status.state === 'applies') {
    const insertion = status.chunk.lines.every((line) => line.kind === '+');
    return `    ${label}: would apply ${insertion ? `after line ${status.line}` : `at line ${status.line}`}`;
  }
  if (status.state === 'ambiguous') return `    ${label}: AMBIGUOUS — ${status.detail}`;
  return `    ${label}: NOT FOUND — ${status.detail}`;
}

/** The model-facing message of a rejected patch: every operation's and chunk's status, so only what failed gets fixed. */
export function formatFailureReport(reports: readonly OperationReport[]): string {
  const failed = reports.filter((report) => !report.ok).length;
  const lines = [`The patch was not applied and no file was changed: ${failed} of ${reports.length} operation${reports.length === 1 ? '' : 's'} failed.`];
  for (const report of reports) {
    const label = header(report.operation);
    if (report.ok) {
      lines.push(`${label}: would apply`);
      continue;
    }
    if (report.chunks && report.chunks.length > 0) {
      lines.push(`${label}: FAILED`);
      report.chunks.forEach((status, index) => lines.push(chunkLine(status, index)));
      const unchecked = report.operation.kind === 'update' ? report.operation.chunks.length - report.chunks.length : 0;
      if (unchecked > 0) lines.push(`    ${unchecked} later chunk(s) not checked`);
    } else lines.push(`${label}: FAILED — ${report.message ?? 'unknown reason'}`);
  }
  lines.push('Fix only what failed (re-read the file with exec_command if unsure) and send the whole patch again.');
  return lines.join('\n');
}
