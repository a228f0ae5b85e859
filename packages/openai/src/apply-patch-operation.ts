import { OPENAI_NATIVE_VOCABULARY, errorResult, type FileOperation, type ToolHost, type ToolResult } from 'toolhost';

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

/** The host methods an apply_patch operation needs. */
export type ApplyPatchHost = Pick<ToolHost, 'edit'>;

/**
 * The file operation the engine applies for one V4A operation: the diff stays the diff of that one file (never pasted
 * into patch text), so it can only touch `path` and `move_to`. Undefined when the value is not an operation.
 */
export function toFileOperation(operation: unknown): FileOperation | undefined {
  if (typeof operation !== 'object' || operation === null) return undefined;
  const candidate = operation as Record<string, unknown>;
  if (typeof candidate.path !== 'string') return undefined;
  if (candidate.type === 'delete_file') return { kind: 'delete', path: candidate.path };
  if (typeof candidate.diff !== 'string') return undefined;
  if (candidate.type === 'create_file') return { kind: 'add', path: candidate.path, diff: candidate.diff };
  if (candidate.type !== 'update_file') return undefined;
  const moveTo = candidate.move_to ?? candidate.moveTo;
  if (moveTo !== undefined && moveTo !== null && typeof moveTo !== 'string') return undefined;
  return typeof moveTo === 'string'
    ? { kind: 'update', path: candidate.path, diff: candidate.diff, moveTo }
    : { kind: 'update', path: candidate.path, diff: candidate.diff };
}

/** The operation's `type` as the model sent it: an object or array as JSON, not as "[object Object]". */
function shownType(type: unknown): string {
  if (type === undefined || type === null) return 'none';
  return typeof type === 'object' ? JSON.stringify(type) : String(type as string | number | boolean | bigint | symbol);
}

/**
 * Runs one apply_patch operation through the host's patch engine (atomic, boundary-checked, counted by the
 * anti-blind-editing gate), with texts in the native tools' terms; a malformed operation is refused, writing nothing.
 */
export async function runApplyPatchOperation(
  host: ApplyPatchHost,
  operation: unknown,
  options: { callId?: string } = {},
): Promise<ApplyPatchOperationOutcome> {
  const fileOperation = toFileOperation(operation);
  const result = fileOperation
    ? await host.edit([fileOperation], { vocabulary: OPENAI_NATIVE_VOCABULARY, callId: options.callId })
    : errorResult(
        'invalid_arguments',
        `Nothing was changed: an apply_patch operation is {"type":"create_file"|"update_file","path":string,"diff":string} (update_file may add "move_to") or {"type":"delete_file","path":string}; got type ${JSON.stringify(shownType((operation as { type?: unknown } | null | undefined)?.type).slice(0, 40))}.`,
      );
  return { status: result.ok ? 'completed' : 'failed', output: result.output, result };
}
