import { ErrorCode, type Workspace } from '@toolhost/core';
import { binaryDiffEntry, createDiffEntry, type DiffEntry } from './diff-entry.js';
import type { ParsedPatch, PatchOperation } from './patch-syntax.js';
import { DIFF_UPDATE_RULES, planUpdate, type ChunkStatus, type UpdatePlan, type UpdateRules } from './plan-update.js';
import { applyV4aUpdate } from './v4a-diff.js';
import { resolveTarget, type ResolvedTarget } from './resolve-target.js';
import { decodeText, encodeDocument, majorityEnding, splitLines, type TextDocument } from './text-document.js';
import { editPhrases, type EditPhrases } from './edit-phrases.js';
import { PlanOverlay, type FileRecord, type PlanErrorCode } from './plan-overlay.js';
import { insertLines, replaceAt, replaceOnce, type TextEditResult } from './text-edits.js';

export type { PlanErrorCode } from './plan-overlay.js';

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

/** One file write or removal to perform, with what to restore if the patch must be rolled back. */
export interface FileChange {
  /** Real workspace-relative path (symlinks followed), or the link itself for `removeLink`. */
  key: string;
  before: Uint8Array | undefined;
  beforeMode: number | undefined;
  after: Uint8Array | undefined;
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

const encoder = new TextEncoder();

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether something is at the target in the plan: a planned file, or a directory/special file on disk. */
function isPresent(target: Extract<ResolvedTarget, { ok: true }>, file: FileRecord | undefined): boolean {
  if (target.kind === 'file' || target.kind === 'missing') return file?.bytes !== undefined;
  return true;
}

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

/** The update's plan: its chunks matched, or its V4A diff applied as the Agents SDK applies it (a syntax error as a message). */
function planOperationUpdate(
  operation: Extract<PatchOperation, { kind: 'update' }>,
  document: TextDocument,
  rules: UpdateRules,
): UpdatePlan | { message: string } {
  if (operation.v4aDiff !== undefined) {
    const applied = applyV4aUpdate(document, operation.v4aDiff, operation.path);
    if (applied.ok) return { ok: true, chunks: applied.chunks, document: applied.document, regions: applied.regions };
    return applied.kind === 'parse' ? { message: applied.message } : { ok: false, chunks: applied.chunks };
  }
  return operation.chunks.length > 0 ? planUpdate(document, operation.chunks, rules) : { ok: true, chunks: [], document, regions: [] };
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
  const keys: string[] = [];
  for (const operation of patch.operations) {
    for (const path of operation.kind === 'update' && operation.moveTo !== undefined
      ? [operation.path, operation.moveTo]
      : [operation.path]) {
      const target = await resolveTarget(workspace, path);
      if (target.ok) keys.push(target.key, target.path);
    }
  }
  return keys;
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
  const { shell, edit } = phrases.vocabulary;
  const overlay = new PlanOverlay(workspace, phrases);
  const reports: OperationReport[] = [];
  const diff: DiffEntry[] = [];
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];

  const notAFile = (path: string, kind: string, action: string) =>
    `${path} is a ${kind === 'directory' ? 'directory' : kind === 'other' ? 'special file (not a regular file)' : kind}; ${action}`;

  for (const operation of patch.operations) {
    const report: OperationReport = { operation, ok: false };
    reports.push(report);
    const fail = (code: PlanErrorCode, message: string) => {
      report.code = code;
      report.message = message;
    };
    const source = await overlay.resolve(operation.path);
    if ('code' in source) {
      fail(source.code, source.message);
      continue;
    }
    const target = source.target;
    const file = target.kind === 'missing' ? overlay.records.get(target.key) : await overlay.record(target);
    const present = isPresent(target, file);

    if (operation.kind === 'add') {
      if (present) {
        const what =
          target.kind === 'file' || target.kind === 'missing'
            ? 'already exists'
            : notAFile(target.path, target.kind, 'cannot add a file there');
        if (phrases.vocabulary.edits === 'text_editor' && what === 'already exists') {
          fail(ErrorCode.PatchTargetExists, `File already exists at: ${operation.path}. Cannot overwrite files using command \`create\`.`);
        } else
          fail(
            ErrorCode.PatchTargetExists,
            `${target.path} ${what === 'already exists' ? 'already exists' : `is taken: ${what}`}; ${phrases.changeExisting(target.path)}`,
          );
        continue;
      }
      const text = operation.content;
      const bytes = encoder.encode(text);
      const created = await overlay.record({ ...target, kind: 'missing' });
      created.bytes = bytes;
      created.document = { bom: false, lines: splitLines(text), majorityEol: majorityEnding(splitLines(text)) };
      // A link this patch deleted keeps `removeLink`: commit unlinks it, then writes a regular file in its place.
      diff.push(
        createDiffEntry({ path: target.path, operation: 'created', oldLines: [], newLines: created.document.lines, unchanged: false }),
      );
      added.push(target.path);
      report.ok = true;
      continue;
    }

    if (!present || !file) {
      fail(
        ErrorCode.PatchTargetMissing,
        `${target.path} does not exist${operation.kind === 'delete' ? '' : phrases.createMissing(target.path)}.`,
      );
      continue;
    }
    if (target.kind !== 'file' && target.kind !== 'missing') {
      fail(
        ErrorCode.ToolFailed,
        notAFile(
          target.path,
          target.kind,
          operation.kind === 'delete'
            ? `${edit} deletes only files; remove directories with ${shell}.`
            : `${edit} edits only regular files.`,
        ),
      );
      continue;
    }

    if (operation.kind === 'delete') {
      const decoded = decodeText(file.bytes!);
      diff.push(
        decoded.ok
          ? createDiffEntry({ path: target.path, operation: 'deleted', oldLines: decoded.document.lines, newLines: [], unchanged: false })
          : binaryDiffEntry(target.path, 'deleted'),
      );
      await overlay.remove(target, file);
      deleted.push(target.path);
      report.ok = true;
      continue;
    }

    // Update (possibly with a move), or a text edit.
    const decoded = overlay.documentOf(file, target.path);
    if ('message' in decoded) {
      fail(ErrorCode.ToolFailed, decoded.message);
      continue;
    }
    if (operation.kind === 'replace' || operation.kind === 'insert') {
      const edited = applyTextEdit(operation, decoded.document, target.path, phrases);
      if (!edited.ok) {
        fail(edited.code, edited.message);
        continue;
      }
      const newBytes = encodeDocument(edited.document);
      const unchanged = sameBytes(newBytes, file.bytes);
      file.bytes = newBytes;
      file.document = edited.document;
      diff.push(
        createDiffEntry({
          path: target.path,
          operation: 'updated',
          oldLines: decoded.document.lines,
          newLines: edited.document.lines,
          unchanged,
        }),
      );
      modified.push(target.path);
      report.ok = true;
      continue;
    }
    const planned = planOperationUpdate(operation, decoded.document, rules);
    if ('message' in planned) {
      fail(ErrorCode.PatchParseError, planned.message);
      continue;
    }
    report.chunks = planned.chunks;
    if (!planned.ok || !planned.document) {
      const first = planned.chunks.find((status) => status.state !== 'applies');
      fail(first?.state === 'ambiguous' ? ErrorCode.PatchAmbiguous : ErrorCode.PatchContextNotFound, 'some chunks did not match');
      continue;
    }
    const newBytes = planned.document === decoded.document ? file.bytes! : encodeDocument(planned.document);
    let destinationPath = target.path;
    let destination = file;
    if (operation.moveTo !== undefined) {
      const moved = await overlay.resolve(operation.moveTo);
      if ('code' in moved) {
        fail(moved.code, `*** Move to: ${moved.message}`);
        continue;
      }
      if (moved.target.key !== target.key) {
        const movedExisting = moved.target.kind === 'missing' ? overlay.records.get(moved.target.key) : await overlay.record(moved.target);
        if (isPresent(moved.target, movedExisting)) {
          fail(
            ErrorCode.PatchTargetExists,
            `cannot move ${target.path} to ${moved.target.path}: it already exists. Delete it first or pick another name.`,
          );
          continue;
        }
        if (target.isLink) {
          fail(
            ErrorCode.ToolFailed,
            `${target.path} is a symlink; ${edit} does not move symlinks. Move it with ${shell}, or edit its target ${target.key}.`,
          );
          continue;
        }
        destinationPath = moved.target.path;
        destination = await overlay.record({ ...moved.target, kind: 'missing' });
        destination.mode = file.mode;
        file.bytes = undefined;
        file.document = undefined;
      }
    }
    const unchanged = destination === file && sameBytes(newBytes, file.bytes);
    destination.bytes = newBytes;
    destination.document = planned.document;
    const isMove = destination !== file;
    diff.push(
      createDiffEntry({
        path: destinationPath,
        operation: isMove ? 'moved' : 'updated',
        oldPath: isMove ? target.path : undefined,
        oldLines: decoded.document.lines,
        newLines: planned.document.lines,
        regions: planned.regions,
        unchanged,
      }),
    );
    modified.push(destinationPath);
    report.ok = true;
  }

  const changes = changesOf(overlay.records.values());
  const ok = reports.every((report) => report.ok);
  const summary = [...added.map((path) => `A ${path}`), ...modified.map((path) => `M ${path}`), ...deleted.map((path) => `D ${path}`)];
  return { ok, reports, changes: ok ? changes : [], diff, summary, keys: overlay.keys };
}
