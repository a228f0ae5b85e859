import { ErrorCode, errorResult, resolveWorkspacePath, type ToolResult, type ToolVocabulary, type Workspace } from '@toolhost/core';
import { parsePatch } from '@toolhost/patch';
import { rebaseOperations, recognizeShellCommandPatch, type ApplyPatchInvocation } from './apply-patch-invocation.js';
import type { ApplyOperations } from './edit-path.js';

/**
 * Answers a shell command that is a patch (an apply_patch invocation, or a bare patch) as the shell tool's result,
 * without running anything; undefined for any other command, which the caller runs.
 */
export type ShellSentPatch = (
  cmd: string,
  workdir: unknown,
  budget: number,
  signal: AbortSignal,
  vocabulary: ToolVocabulary,
) => Promise<ToolResult | undefined>;

/**
 * The refusal of a bare patch sent as a command: Codex's `ImplicitInvocation` text, pointing at the model's own edit
 * tool, or at shell commands on a host without one.
 */
function implicitInvocationResult(vocabulary: ToolVocabulary, hasEditTool: boolean): ToolResult {
  const fix = hasEditTool
    ? `Call the ${vocabulary.edit} tool ${vocabulary.edits === 'patch' ? 'with this patch' : 'to make this edit'} instead of sending the patch to ${vocabulary.shell}.`
    : `A patch is not a command, and this host has no ${vocabulary.edit} tool: edit the files with ${vocabulary.shell} commands.`;
  return errorResult(ErrorCode.InvalidArguments, `patch detected without explicit call to apply_patch, so nothing was run. ${fix}`, {
    exit_code: 1,
  });
}

/** The line that follows the result of an apply_patch heredoc sent through the shell tool. */
function applyPatchViaShellNote(vocabulary: ToolVocabulary): string {
  return `Note: this apply_patch command went to the ${vocabulary.edit} tool, not to a shell. Call the ${vocabulary.edit} tool directly instead of ${vocabulary.shell}.`;
}

/**
 * A patch result answered to exec_command: the result, then one line pointing the model at the apply_patch tool. Its
 * data gains `exit_code` (0 applied, 1 refused), as an apply_patch program would exit, for callers that read one.
 */
function withPatchNote(result: ToolResult, vocabulary: ToolVocabulary): ToolResult {
  const data = { ...result.data, exit_code: result.ok ? 0 : 1 };
  const note = applyPatchViaShellNote(vocabulary);
  if (result.error) return errorResult(result.error.code, `${result.error.message}\n${note}`, data);
  return { ...result, output: `${result.output.replace(/\n*$/, '\n')}${note}`, data };
}

/**
 * The folder a heredoc's patch paths are relative to: workdir, then the `cd` argument (an absolute or home-relative
 * one replaces workdir, as in a shell, and is checked as such); or a result refusing it.
 */
async function patchDirectory(
  workspace: Workspace,
  invocation: ApplyPatchInvocation,
  workdir: unknown,
  vocabulary: ToolVocabulary,
): Promise<string | ToolResult> {
  const parts = [typeof workdir === 'string' ? workdir : '', invocation.directory ?? ''];
  const joined = parts.reduce(
    (base, part) => (part === '' ? base : part.startsWith('/') || part.startsWith('~') || base === '' ? part : `${base}/${part}`),
    '',
  );
  if (joined === '') return '';
  // Only exec_command has a workdir argument; another shell's folder is the one its commands run in.
  const folder = vocabulary.shell === 'exec_command' ? 'workdir' : `the ${vocabulary.shell} working folder`;
  const what = invocation.directory === undefined ? folder : `cd ${invocation.directory}`;
  const check = await resolveWorkspacePath(workspace, joined);
  if (!check.ok)
    return errorResult(
      ErrorCode.OutsideWorkspace,
      `${what}: ${check.message}; nothing was changed. Patch paths are relative to the workspace root ${workspace.root}.`,
    );
  if (check.relative === '') return '';
  const stat = await workspace.stat(check.relative);
  if (stat?.kind !== 'directory')
    return errorResult(ErrorCode.ToolFailed, `${what}: ${check.relative} is not an existing folder; nothing was changed.`);
  return check.relative;
}

/**
 * Answers a patch sent as a shell command: an apply_patch invocation is applied as the patch tool would apply it
 * (same engine, same gate) when the host has the tool, and left to the shell otherwise; a bare patch is refused.
 */
export function createShellSentPatch(workspace: Workspace, applyOperations: ApplyOperations | undefined): ShellSentPatch {
  const apply = async (
    invocation: ApplyPatchInvocation,
    workdir: unknown,
    budget: number,
    signal: AbortSignal,
    vocabulary: ToolVocabulary,
    applyPatch: ApplyOperations,
  ): Promise<ToolResult> => {
    const parsed = parsePatch(invocation.patch);
    if (!parsed.ok) return errorResult(ErrorCode.PatchParseError, parsed.message, { line: parsed.line });
    let directory: string | ToolResult;
    try {
      directory = await patchDirectory(workspace, invocation, workdir, vocabulary);
    } catch (error) {
      return errorResult(
        ErrorCode.ToolFailed,
        `The patch was not applied and no file was changed: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    if (typeof directory !== 'string') return directory;
    // The model wrote patch text: its report counts patch lines, whatever tool names the model has.
    return applyPatch(rebaseOperations(parsed.patch.operations, directory), budget, signal, { ...vocabulary, edits: 'patch' });
  };
  return async (cmd, workdir, budget, signal, vocabulary) => {
    const recognized = recognizeShellCommandPatch(cmd);
    if (!recognized) return undefined;
    if (recognized.kind === 'implicit') return implicitInvocationResult(vocabulary, applyOperations !== undefined);
    if (!applyOperations) return undefined;
    return withPatchNote(await apply(recognized.invocation, workdir, budget, signal, vocabulary, applyOperations), vocabulary);
  };
}
