import { ErrorCode, joinFileBytes, type FileBytes, type Workspace } from '@toolhost/core';
import type { EditPhrases } from './edit-phrases.js';
import { resolveTarget, type ResolvedTarget } from './resolve-target.js';
import { decodeText, type TextDocument } from './text-document.js';

/** Error codes a planned operation can fail with. */
export type PlanErrorCode =
  | typeof ErrorCode.OutsideWorkspace
  | typeof ErrorCode.InvalidArguments
  | typeof ErrorCode.PatchContextNotFound
  | typeof ErrorCode.PatchParseError
  | typeof ErrorCode.PatchAmbiguous
  | typeof ErrorCode.PatchTargetExists
  | typeof ErrorCode.PatchTargetMissing
  | typeof ErrorCode.ToolFailed;

/** A file as the plan sees it: what it was, and what it is after the operations so far. */
export interface FileRecord {
  key: string;
  before: Uint8Array | undefined;
  beforeMode: number | undefined;
  /** Current content in the plan (whole, or in pieces after an edit); undefined when absent. */
  bytes: FileBytes | undefined;
  /** Decoded current content, kept to avoid re-decoding. */
  document?: TextDocument;
  mode: number | undefined;
  removeLink?: boolean;
  linkTarget?: string;
  createsFolders?: string[];
}

/**
 * The files of a plan as earlier operations left them, over the workspace: every path resolved and read once, so a
 * later operation sees what an earlier one did, and every key touched remembered for locking.
 */
export class PlanOverlay {
  readonly records = new Map<string, FileRecord>();
  /** Symlinks the plan deletes: a later operation on the path creates a regular file there. */
  readonly removedLinks = new Set<string>();
  /** Every workspace-relative key the plan touched. */
  readonly keys: string[] = [];
  private readonly pendingFolders = new Map<string, string[]>();

  constructor(
    private readonly workspace: Workspace,
    private readonly phrases: EditPhrases,
  ) {}

  /** Resolves a path against the workspace boundary, as the plan has left it. */
  async resolve(path: string): Promise<{ target: Extract<ResolvedTarget, { ok: true }> } | { code: PlanErrorCode; message: string }> {
    const target = await resolveTarget(this.workspace, path);
    if (!target.ok)
      return { code: target.code === 'outside_workspace' ? ErrorCode.OutsideWorkspace : ErrorCode.ToolFailed, message: target.message };
    if (target.missingFolders.length > 0) {
      const existing = this.records.get(target.key);
      if (!existing || existing.createsFolders === undefined) {
        // Remembered on the record the file gets when it is created.
        this.pendingFolders.set(target.key, target.missingFolders);
      }
    }
    this.keys.push(target.key, target.path);
    if (this.removedLinks.has(target.path)) return { target: { ...target, kind: 'missing', isLink: false, key: target.path } };
    return { target };
  }

  /** The record of a resolved target, read from the workspace the first time. */
  async record(target: Extract<ResolvedTarget, { ok: true }>): Promise<FileRecord> {
    let existing = this.records.get(target.key);
    if (!existing) {
      if (target.kind === 'file') {
        const bytes = await this.workspace.readFile(target.path);
        const stat = await this.workspace.stat(target.path);
        existing = { key: target.key, before: bytes, beforeMode: stat?.mode, bytes, mode: stat?.mode };
      } else {
        existing = {
          key: target.key,
          before: undefined,
          beforeMode: undefined,
          bytes: undefined,
          mode: undefined,
          createsFolders: this.pendingFolders.get(target.key),
        };
      }
      this.records.set(target.key, existing);
    }
    return existing;
  }

  /** The file's text as lines, decoded once; or why it is not UTF-8 text. */
  documentOf(file: FileRecord, path: string): { document: TextDocument } | { message: string } {
    if (file.document) return { document: file.document };
    const decoded = decodeText(joinFileBytes(file.bytes!));
    const { edit, shell } = this.phrases.vocabulary;
    if (!decoded.ok)
      return { message: `${path} was not changed: ${decoded.message}. ${edit} only edits UTF-8 text files; use ${shell} for other files.` };
    file.document = decoded.document;
    return { document: decoded.document };
  }

  /** Deletes the file in the plan; a symlink is deleted itself, never the file it points to. */
  async remove(target: Extract<ResolvedTarget, { ok: true }>, file: FileRecord): Promise<void> {
    if (!target.isLink) {
      file.bytes = undefined;
      file.document = undefined;
      return;
    }
    const linkTarget = await this.workspace.readLink?.(target.path);
    this.records.set(target.path, {
      key: target.path,
      before: file.bytes === undefined ? undefined : joinFileBytes(file.bytes),
      beforeMode: file.mode,
      bytes: undefined,
      mode: undefined,
      removeLink: true,
      linkTarget,
    });
    this.removedLinks.add(target.path);
  }
}
