import { ErrorCode, errorResult, okResult, type ErrorCode as ErrorCodeType, type ToolResult, type Workspace } from '@toolhost/core';
import { commitChanges } from './commit-changes.js';
import { formatFailureReport } from './failure-report.js';
import { parsePatch } from './parse-patch.js';
import { sharedPathLocks, type PathLocks } from './path-locks.js';
import { patchKeys, planPatch } from './plan-patch.js';

/** Options of {@link applyPatch}. */
export interface ApplyPatchOptions {
  /** Lock table serializing concurrent patches on the same files (default: one shared by the whole process). */
  locks?: PathLocks;
}

const MAX_LOCK_ATTEMPTS = 3;

/**
 * Applies patch text to a workspace atomically: parse, resolve, read, match and check everything first, then write
 * (temp file + rename), restoring every written file if a write fails. Returns the apply_patch tool result.
 */
export async function applyPatch(workspace: Workspace, text: string, options: ApplyPatchOptions = {}): Promise<ToolResult> {
  try {
    return await applyChecked(workspace, text, options);
  } catch (error) {
    // A file-system error while reading or checking (e.g. a file vanishing mid-call): nothing was written yet.
    const reason = error instanceof Error ? error.message : String(error);
    return errorResult(ErrorCode.ToolFailed, `The patch was not applied and no file was changed: ${reason}. Check the paths and try again.`);
  }
}

async function applyChecked(workspace: Workspace, text: string, options: ApplyPatchOptions): Promise<ToolResult> {
  const parsed = parsePatch(text);
  if (!parsed.ok) return errorResult(ErrorCode.PatchParseError, parsed.message, { line: parsed.line });
  const locks = options.locks ?? sharedPathLocks;
  const scope = (key: string) => `${workspace.root}\u0000${key}`;
  let keys = await patchKeys(workspace, parsed.patch);
  for (let attempt = 1; ; attempt++) {
    const release = await locks.acquire(keys.map(scope));
    try {
      const plan = await planPatch(workspace, parsed.patch);
      const held = new Set(keys);
      if (!plan.keys.every((key) => held.has(key))) {
        // A path changed between locking and planning (e.g. a symlink was re-pointed): lock the union and plan again.
        // Never commit while holding fewer keys than the plan touches; if the paths keep changing, give up unwritten.
        if (attempt >= MAX_LOCK_ATTEMPTS) {
          return errorResult(
            ErrorCode.ToolFailed,
            `The patch was not applied and no file was changed: the files it touches kept resolving to different paths while it was checked (${MAX_LOCK_ATTEMPTS} tries; symlinks or folders are being changed by something else). Wait for that to finish and send the patch again.`,
          );
        }
        keys = [...new Set([...keys, ...plan.keys])];
        continue;
      }
      if (!plan.ok) {
        const first = plan.reports.find((report) => !report.ok)!;
        const code: ErrorCodeType = first.code ?? ErrorCode.ToolFailed;
        return errorResult(code, formatFailureReport(plan.reports), {
          operations: plan.reports.map((report) => ({
            kind: report.operation.kind,
            path: report.operation.path,
            ok: report.ok,
            ...(report.code ? { code: report.code } : {}),
            ...(report.chunks ? { chunks: report.chunks.map((chunk) => chunk.state) } : {}),
          })),
        });
      }
      const committed = await commitChanges(workspace, plan.changes);
      if (!committed.ok) return errorResult(ErrorCode.ToolFailed, `The patch was not applied: ${committed.message}`);
      return okResult(`Success. Updated the following files:\n${plan.summary.join('\n')}\n`, { diff: plan.diff });
    } finally {
      release();
    }
  }
}
