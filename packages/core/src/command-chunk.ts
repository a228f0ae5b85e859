import type { ToolResult } from './tool-result.js';

/** What one exec_command or write_stdin answer says of its command, as data rather than text. */
export interface CommandChunk {
  /** The output this answer shows (the preview under its `Output:` line), already fitted to the call's budget. */
  readonly output: string;
  /** Whether the call was cancelled, so the command and every process it started were killed. */
  readonly cancelled: boolean;
}

// Kept beside the result rather than in it, so the model's text, `data` and its schema stay as they are.
const chunks = new WeakMap<ToolResult, CommandChunk>();

/** Records the command chunk of an exec engine's answer; returns the answer. */
export function withCommandChunk<Result extends ToolResult>(result: Result, chunk: CommandChunk): Result {
  chunks.set(result, chunk);
  return result;
}

/** The command chunk an exec engine recorded for this answer; undefined for any other result. */
export function commandChunkOf(result: ToolResult): CommandChunk | undefined {
  return chunks.get(result);
}
