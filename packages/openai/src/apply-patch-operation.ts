import type { ToolHost, ToolResult } from 'toolhost';

/** One file operation of an `apply_patch_call` (Responses API) or of the Agents SDK's Editor, with a V4A diff. */
export type ApplyPatchOperation =
  | { type: 'create_file'; path: string; diff: string }
  | { type: 'update_file'; path: string; diff: string; move_to?: string | null; moveTo?: string | null }
  | { type: 'delete_file'; path: string };

/** What running one operation gave: the status and text to send back, and the host's full result. */
export interface ApplyPatchOperationOutcome {
  status: 'completed' | 'failed';
  /** The model-visible text: our apply_patch success summary, or its fix-it error text. */
  output: string;
  result: ToolResult;
}

function body(diff: string): string {
  return diff.replace(/\r?\n$/, '');
}

/** Wraps one operation into our `*** Begin Patch` envelope (a V4A diff is the body of one file section). */
export function toPatchEnvelope(operation: ApplyPatchOperation): string {
  const lines = ['*** Begin Patch'];
  if (operation.type === 'create_file') {
    lines.push(`*** Add File: ${operation.path}`);
    if (operation.diff.length > 0) lines.push(body(operation.diff));
  } else if (operation.type === 'update_file') {
    lines.push(`*** Update File: ${operation.path}`);
    const moveTo = operation.move_to ?? operation.moveTo;
    if (moveTo) lines.push(`*** Move to: ${moveTo}`);
    if (operation.diff.length > 0) lines.push(body(operation.diff));
  } else lines.push(`*** Delete File: ${operation.path}`);
  lines.push('*** End Patch');
  return lines.join('\n');
}

function refused(code: 'outside_workspace' | 'invalid_arguments', message: string): ApplyPatchOperationOutcome {
  const result: ToolResult = { ok: false, output: `Error [${code}]: ${message}`, error: { code, message } };
  return { status: 'failed', output: result.output, result };
}

function isOperation(value: unknown): value is ApplyPatchOperation {
  const candidate = value as ApplyPatchOperation | undefined;
  if (typeof candidate?.path !== 'string') return false;
  if (candidate.type === 'delete_file') return true;
  return (candidate.type === 'create_file' || candidate.type === 'update_file') && typeof candidate.diff === 'string';
}

/**
 * Runs one apply_patch operation through the host's apply_patch tool (atomic, boundary-checked, counted by the
 * anti-blind-editing gate); a malformed operation is answered like a malformed patch.
 */
export async function runApplyPatchOperation(host: Pick<ToolHost, 'call'>, operation: unknown): Promise<ApplyPatchOperationOutcome> {
  // A line break in a path would end its header line inside the envelope: refuse it as the engine refuses control characters.
  const paths = [(operation as { path?: unknown })?.path, (operation as { move_to?: unknown })?.move_to, (operation as { moveTo?: unknown })?.moveTo];
  const broken = paths.find((path) => typeof path === 'string' && /[\r\n]/.test(path));
  if (typeof broken === 'string') return refused('outside_workspace', `path ${JSON.stringify(broken)} contains a NUL or control character`);
  // The envelope's header trims a path, so " a.txt" would be written as "a.txt": refuse rather than write elsewhere.
  const padded = paths.find((path) => typeof path === 'string' && path !== path.trim());
  if (typeof padded === 'string') {
    return refused('invalid_arguments', `path ${JSON.stringify(padded)} starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.`);
  }
  const input = isOperation(operation)
    ? toPatchEnvelope(operation)
    : // Let the engine answer with its own parse error text and code.
      `*** Begin Patch\n*** ${String((operation as { type?: unknown } | undefined)?.type ?? 'missing operation')}\n*** End Patch`;
  const result = await host.call('apply_patch', { input });
  return { status: result.ok ? 'completed' : 'failed', output: result.output, result };
}
