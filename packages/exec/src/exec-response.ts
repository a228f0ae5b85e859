import { budgetOutput, okResult, truncationMarker, type Tokenizer, type ToolResult } from '@toolhost/core';
import { formatExecOutput, newChunkId } from './exec-output.js';
import type { CapturedText } from './output-window.js';

/** Characters sampled at each end of a window too large to count in full. */
const ESTIMATE_SAMPLE = 64 * 1024;

/** What one exec_command / write_stdin response is made of. */
export interface ExecResponseInput {
  wallTimeMs: number;
  /** Set when the process has exited (and this response reports it). */
  exitCode?: number;
  /** Set while the process is still running. */
  sessionId?: number;
  notes?: string[];
  /** The chunk id to show (default: random). */
  chunkId?: string;
  captured: CapturedText;
  tokenizer: Tokenizer;
  maxOutputTokens: number;
  /** Returns the spool file holding the complete output; called only when the preview leaves something out. */
  spoolPath(): string | undefined;
}

/** Tokens of the whole window: exact when it is all in memory, else extrapolated from samples of both ends. */
export function windowTokenCount(captured: CapturedText, tokenizer: Tokenizer): number {
  if (captured.omittedChars === 0) return tokenizer.count(captured.head + captured.tail);
  const headSample = captured.head.slice(0, ESTIMATE_SAMPLE);
  const tailSample = captured.tail.slice(Math.max(0, captured.tail.length - ESTIMATE_SAMPLE));
  const sampled = headSample.length + tailSample.length;
  if (sampled === 0) return 0;
  const ratio = (tokenizer.count(headSample) + tokenizer.count(tailSample)) / sampled;
  return Math.max(1, Math.round(ratio * (captured.head.length + captured.tail.length + captured.omittedChars)));
}

function snapHead(head: string): string {
  const cut = head.lastIndexOf('\n');
  return cut >= head.length * 0.75 ? head.slice(0, cut + 1) : head;
}

function snapTail(tail: string): string {
  const cut = tail.indexOf('\n');
  return cut >= 0 && cut < tail.length * 0.25 && cut < tail.length - 1 ? tail.slice(cut + 1) : tail;
}

/** Head + marker + tail of a window whose middle is not in memory, within `available` tokens. */
function previewWithGap(captured: CapturedText, available: number, originalTokens: number, tokenizer: Tokenizer, note: string | undefined): string {
  const markerTokens = tokenizer.count(truncationMarker(originalTokens, true, note));
  const room = available - markerTokens;
  if (room < 2) return tokenizer.head(truncationMarker(originalTokens, true, note), Math.max(0, available));
  const head = snapHead(tokenizer.head(captured.head, Math.ceil(room / 2)));
  const headTokens = tokenizer.count(head);
  const tail = snapTail(tokenizer.tail(captured.tail, room - headTokens));
  const omitted = Math.max(1, originalTokens - headTokens - tokenizer.count(tail));
  return head + truncationMarker(omitted, true, note) + tail;
}

/**
 * Builds the Codex-compatible response: header lines, then `Output:` and a preview budgeted so that the whole text
 * stays within `max_output_tokens` (head and tail around a marker naming the spool file when something is left out).
 */
export function buildExecResponse(input: ExecResponseInput): ToolResult {
  const { captured, tokenizer } = input;
  const limit = input.maxOutputTokens;
  const originalTokens = windowTokenCount(captured, tokenizer);
  const parts = {
    chunkId: input.chunkId ?? newChunkId(),
    wallTimeMs: input.wallTimeMs,
    exitCode: input.exitCode,
    sessionId: input.exitCode === undefined ? input.sessionId : undefined,
    originalTokenCount: originalTokens,
    notes: input.notes,
  };
  const complete = captured.omittedChars === 0;
  const whole = complete ? captured.head + captured.tail : '';
  let available = limit - tokenizer.count(formatExecOutput({ ...parts, preview: '' }));
  let truncated = !complete;
  let spoolPath: string | undefined;
  let output = '';
  for (let attempt = 0; attempt < 8; attempt++) {
    let preview: string;
    if (complete && !truncated && tokenizer.isWithin(whole, Math.max(0, available))) preview = whole;
    else {
      truncated = true;
      spoolPath ??= input.spoolPath();
      const note = spoolPath ? `Full output: ${spoolPath}` : undefined;
      if (available <= 0) preview = '';
      else if (complete) preview = budgetOutput(whole, available, tokenizer, { note }).text;
      else preview = previewWithGap(captured, available, originalTokens, tokenizer, note);
    }
    output = formatExecOutput({ ...parts, preview });
    const total = tokenizer.count(output);
    if (total <= limit || available <= 0) break;
    available -= Math.max(1, total - limit);
  }
  const data: Record<string, unknown> = {};
  if (parts.sessionId !== undefined) data.session_id = parts.sessionId;
  if (parts.exitCode !== undefined) data.exit_code = parts.exitCode;
  Object.assign(data, { wall_time_ms: Math.round(input.wallTimeMs), original_token_count: originalTokens, truncated });
  if (spoolPath !== undefined) data.spool_path = spoolPath;
  return okResult(output, data);
}
