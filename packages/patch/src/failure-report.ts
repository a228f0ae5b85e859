import type { EditPhrases } from './edit-phrases.js';
import type { OperationReport } from './plan-patch.js';
import type { ChunkStatus } from './plan-update.js';

function chunkLabel(status: ChunkStatus, index: number, phrases: EditPhrases): string {
  const anchors = status.chunk.anchors.length ? ` @@ ${status.chunk.anchors.join(' / @@ ')}` : '';
  return `chunk ${index + 1} (${phrases.lineLabel} ${status.chunk.line}${anchors})`;
}

function chunkLine(status: ChunkStatus, index: number, phrases: EditPhrases): string {
  const label = chunkLabel(status, index, phrases);
  if (status.state === 'applies') {
    const insertion = status.chunk.lines.every((line) => line.kind === '+');
    return `    ${label}: would apply ${insertion ? `after line ${status.line}` : `at line ${status.line}`}`;
  }
  if (status.state === 'ambiguous') return `    ${label}: AMBIGUOUS — ${status.detail}`;
  return `    ${label}: NOT FOUND — ${status.detail}`;
}

/** The model-facing message of a rejected patch: every operation's and chunk's status, so only what failed gets fixed. */
export function formatFailureReport(reports: readonly OperationReport[], phrases: EditPhrases): string {
  // A text editor command is one operation: its reason alone, as the editor's own errors read.
  if (phrases.vocabulary.edits === 'text_editor' && reports.length === 1 && !reports[0].chunks)
    return reports[0].message ?? 'unknown reason';
  const failed = reports.filter((report) => !report.ok).length;
  const lines = [
    `The patch was not applied and no file was changed: ${failed} of ${reports.length} operation${reports.length === 1 ? '' : 's'} failed.`,
  ];
  for (const report of reports) {
    const label = phrases.operation(report.operation);
    if (report.ok) {
      lines.push(`${label}: would apply`);
      continue;
    }
    if (report.chunks && report.chunks.length > 0) {
      lines.push(`${label}: FAILED`);
      report.chunks.forEach((status, index) => lines.push(chunkLine(status, index, phrases)));
      const unchecked = report.operation.kind === 'update' ? report.operation.chunks.length - report.chunks.length : 0;
      if (unchecked > 0) lines.push(`    ${unchecked} later chunk(s) not checked`);
    } else lines.push(`${label}: FAILED — ${report.message ?? 'unknown reason'}`);
  }
  lines.push(`Fix only what failed (re-read the file with ${phrases.vocabulary.shell} if unsure) and ${phrases.resend}.`);
  return lines.join('\n');
}
