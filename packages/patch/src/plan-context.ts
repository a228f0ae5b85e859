import type { DiffEntry } from './diff-entry.js';
import type { EditPhrases } from './edit-phrases.js';
import type { PatchOperation } from './patch-syntax.js';
import type { FileRecord, PlanErrorCode, PlanOverlay } from './plan-overlay.js';
import type { ChunkStatus, UpdateRules } from './plan-update.js';
import type { ResolvedTarget } from './resolve-target.js';

/** How one operation of the patch fares. */
export interface OperationReport {
  operation: PatchOperation;
  ok: boolean;
  code?: PlanErrorCode;
  /** Why it fails (operation-level problems). */
  message?: string;
  /** Per-chunk statuses of an update. */
  chunks?: ChunkStatus[];
}

/** A path resolved inside the workspace. */
export type PlanTarget = Extract<ResolvedTarget, { ok: true }>;

/** What the operations of one plan share: the overlay of files, and the diff and summary built so far. */
export interface PlanContext {
  overlay: PlanOverlay;
  phrases: EditPhrases;
  rules: UpdateRules;
  diff: DiffEntry[];
  added: string[];
  modified: string[];
  deleted: string[];
}

/** Marks the operation's report failed. */
export function failReport(report: OperationReport, code: PlanErrorCode, message: string): void {
  report.code = code;
  report.message = message;
}

/** Whether something is at the target in the plan: a planned file, or a directory/special file on disk. */
export function isPresent(target: PlanTarget, file: FileRecord | undefined): boolean {
  if (target.kind === 'file' || target.kind === 'missing') return file?.bytes !== undefined;
  return true;
}

/** Why a directory or special file at `path` cannot take the action. */
export function notAFile(path: string, kind: string, action: string): string {
  return `${path} is a ${kind === 'directory' ? 'directory' : kind === 'other' ? 'special file (not a regular file)' : kind}; ${action}`;
}
