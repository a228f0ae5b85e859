import { budgetHeadTail, okResult, truncationMarker, withCommandChunk, type Tokenizer, type ToolResult } from '@toolhost/core';
import { formatExecOutput, newChunkId, type ExecOutputParts } from './exec-output.js';
import type { CapturedText } from './output-window.js';

/** Characters sampled at each end of a window too large to count in full. */
const ESTIMATE_SAMPLE = 4 * 1024;

/**
 * Windows up to this many characters are counted exactly; larger ones are estimated (and shown as `~N`): tokenizing
 * runs at about 8 MB/s, so counting 100 KB would cost more than the command that printed it.
 */
export const EXACT_TOKEN_COUNT_CHARS = 32 * 1024;

/** What one exec_command / write_stdin response is made of. */
export interface ExecResponseInput {
  wallTimeMs: number;
  /** Set when the process has exited (and this response reports it). */
  exitCode?: number;
  /** Set while the process is still running. */
  sessionId?: number;
  notes?: string[];
  /** Whether the call was cancelled and the command killed (one of the notes says so). */
  cancelled?: boolean;
  /** The chunk id to show (default: random). */
  chunkId?: string;
  captured: CapturedText;
  tokenizer: Tokenizer;
  maxOutputTokens: number;
  /** Returns the spool file holding the complete output; called only when the preview leaves something out. */
  spoolPath(): string | undefined;
}

/** A response text and the preview it shows under `Output:`. */
interface ExecText {
  output: string;
  preview: string;
}

/** Tokens of the whole window, and whether the count is an estimate. */
export interface WindowTokenCount {
  tokens: number;
  estimated: boolean;
  /** Characters per token in what was counted (set with an estimate). */
  charsPerToken?: number;
}

/** Tokens of the whole window: exact up to {@link EXACT_TOKEN_COUNT_CHARS}, else extrapolated from samples of both ends. */
export function countWindowTokens(captured: CapturedText, tokenizer: Tokenizer): WindowTokenCount {
  const total = captured.head.length + captured.tail.length + captured.omittedChars;
  if (captured.omittedChars === 0 && total <= EXACT_TOKEN_COUNT_CHARS)
    return { tokens: tokenizer.count(captured.head + captured.tail), estimated: false };
  const source = captured.tail.length > 0 ? captured.tail : captured.head;
  const headSample = captured.head.slice(0, ESTIMATE_SAMPLE);
  const tailSample = source.slice(Math.max(source === captured.head ? headSample.length : 0, source.length - ESTIMATE_SAMPLE));
  const sampled = headSample.length + tailSample.length;
  if (sampled === 0) return { tokens: 0, estimated: false };
  const ratio = (tokenizer.count(headSample) + tokenizer.count(tailSample)) / sampled;
  return { tokens: Math.max(1, Math.round(ratio * total)), estimated: true, charsPerToken: ratio > 0 ? 1 / ratio : 4 };
}

/** Tokens of the whole window: exact when it is small, else extrapolated from samples of both ends. */
export function windowTokenCount(captured: CapturedText, tokenizer: Tokenizer): number {
  return countWindowTokens(captured, tokenizer).tokens;
}

/**
 * The response when the header leaves the preview no room for the spool path: whole lines only, chosen by priority
 * (the process state, then the spool path, then the header lines in order) and shown in their usual order.
 */
function compactResponse(
  parts: ExecOutputParts,
  spoolPath: string | undefined,
  omittedTokens: number,
  limit: number,
  tokenizer: Tokenizer,
): ExecText {
  const header = formatExecOutput({ ...parts, preview: '' })
    .split('\n')
    .slice(0, -2);
  const chosen = header.map(() => false);
  let pathLines: string[] = [];
  const render = (lines: boolean[], path: string[]) => [...header.filter((_, index) => lines[index]), ...path].join('\n');
  const tryLine = (index: number) => {
    const next = [...chosen];
    next[index] = true;
    if (tokenizer.isWithin(render(next, pathLines), limit)) chosen[index] = true;
  };
  const status = header.findIndex((line) => line.startsWith('Process '));
  if (status >= 0) tryLine(status);
  if (spoolPath !== undefined) {
    const marker = truncationMarker(omittedTokens, true, `Full output: ${spoolPath}`).trim();
    // The path whole, under Output: as a marker when that fits, else as a bare line; never cut.
    for (const candidate of [['Output:', marker], [`Full output: ${spoolPath}`]]) {
      if (tokenizer.isWithin(render(chosen, candidate), limit)) {
        pathLines = candidate;
        break;
      }
    }
  }
  for (let index = 0; index < header.length; index++) if (!chosen[index]) tryLine(index);
  const compact = { output: render(chosen, pathLines), preview: pathLines.length === 2 ? pathLines[1] : '' };
  const omitted = omittedTokens > 0;
  if (status >= 0 && chosen[status] && (pathLines.length > 0 || !omitted)) return compact;
  // Too small a budget for the header's status line and the spool path: the shortest forms that still say how the
  // process stands and that output was left out.
  for (const form of statusForms(parts, omitted)) if (tokenizer.isWithin(form, limit)) return { output: form, preview: '' };
  return compact;
}

/** Ever shorter statements of the process state (and of the cut), for budgets too small for the header. */
function statusForms(parts: ExecOutputParts, omitted: boolean): string[] {
  const cut = omitted ? ', output cut' : '';
  const more = omitted ? '…' : '';
  if (parts.exitCode !== undefined) {
    const code = parts.exitCode;
    return [`Process exited with code ${code}${cut}`, `exit ${code}${cut}`, `exit ${code}${more}`, `${code}${more}`, `${code}`];
  }
  if (parts.sessionId !== undefined) {
    const id = parts.sessionId;
    return [`Process running with session ID ${id}${cut}`, `session ${id}${cut}`, `session ${id}${more}`, `running${more}`];
  }
  return omitted ? ['output cut', '…'] : [];
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The first `chars` characters, ending at a line end when one is in the last quarter, never inside a surrogate pair. */
function headByChars(text: string, chars: number): string {
  let end = Math.max(0, Math.min(text.length, Math.floor(chars)));
  if (end < text.length && end > 0 && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  const cut = text.lastIndexOf('\n', end - 1);
  return cut >= end * 0.75 ? text.slice(0, cut + 1) : text.slice(0, end);
}

/** The last `chars` characters of `text[from..]`, starting after a line end when one is in the first quarter. */
function tailByChars(text: string, chars: number, from: number): string {
  let start = Math.max(from, text.length - Math.max(0, Math.floor(chars)));
  if (start > from && start < text.length && isLowSurrogate(text.charCodeAt(start))) start += 1;
  const cut = text.indexOf('\n', start);
  const room = text.length - start;
  return cut >= 0 && cut - start < room * 0.25 && cut < text.length - 1 ? text.slice(cut + 1) : text.slice(start);
}

/**
 * The preview of a window whose count is an estimate: head and tail cut by characters at the window's measured
 * characters per token, then the whole response checked once with the tokenizer (and cut shorter if over). Budgeting
 * by tokens would tokenize several times what is shown; here only the response is.
 */
function previewByCharacters(
  parts: ExecOutputParts,
  source: { head: string; tail: string },
  counted: WindowTokenCount,
  available: number,
  limit: number,
  tokenizer: Tokenizer,
  note: string | undefined,
): ExecText | undefined {
  const perToken = counted.charsPerToken ?? 4;
  const markerTokens = tokenizer.count(truncationMarker(counted.tokens, true, note));
  let room = available - markerTokens;
  for (let attempt = 0; attempt < 6 && room >= 2; attempt++) {
    const head = headByChars(source.head, (room / 2) * perToken * 0.95);
    const tailSource = source.tail.length > 0 ? source.tail : source.head;
    const tail = tailByChars(tailSource, (room / 2) * perToken * 0.95, source.tail.length > 0 ? 0 : head.length);
    const omitted = Math.max(1, Math.round(counted.tokens - (head.length + tail.length) / perToken));
    const preview = head + truncationMarker(omitted, true, note) + tail;
    const output = formatExecOutput({ ...parts, preview });
    if (tokenizer.isWithin(output, limit)) return { output, preview };
    room = Math.floor(room * 0.8);
  }
  return undefined;
}

/**
 * Builds the Codex-compatible response: header lines, then `Output:` and a preview budgeted so that the whole text
 * stays within `max_output_tokens` (head and tail around a marker naming the spool file when something is left out).
 */
export function buildExecResponse(input: ExecResponseInput): ToolResult {
  const { captured, tokenizer } = input;
  const limit = input.maxOutputTokens;
  const counted = countWindowTokens(captured, tokenizer);
  const complete = captured.omittedChars === 0;
  const whole = complete ? captured.head + captured.tail : '';
  // A window shown whole is counted exactly whatever its size (the budget check tokenizes it anyway).
  // Whether the whole window could fit at all; when it cannot, no smaller budget below is tried with it again.
  // An estimate of more than twice the budget (from both ends) is not checked against the whole text.
  const wholeMayFit = complete && !(counted.estimated && counted.tokens > 2 * limit) && tokenizer.isWithin(whole, limit);
  if (counted.estimated && wholeMayFit) Object.assign(counted, { tokens: tokenizer.count(whole), estimated: false });
  const originalTokens = counted.tokens;
  const parts = {
    chunkId: input.chunkId ?? newChunkId(),
    wallTimeMs: input.wallTimeMs,
    exitCode: input.exitCode,
    sessionId: input.exitCode === undefined ? input.sessionId : undefined,
    originalTokenCount: originalTokens,
    originalTokenCountEstimated: counted.estimated,
    notes: input.notes,
  };
  let available = limit - tokenizer.count(formatExecOutput({ ...parts, preview: '' }));
  let truncated = !complete;
  let spoolPath: string | undefined;
  let output = '';
  let shown = '';
  let fitted = false;
  if (counted.estimated && !wholeMayFit && available > 0) {
    truncated = true;
    spoolPath = input.spoolPath();
    const note = spoolPath ? `Full output: ${spoolPath}` : undefined;
    const fast = previewByCharacters(
      { ...parts, preview: '' },
      complete ? { head: whole, tail: '' } : captured,
      counted,
      available,
      limit,
      tokenizer,
      note,
    );
    if (fast !== undefined) {
      ({ output, preview: shown } = fast);
      fitted = true;
    }
  }
  for (let attempt = 0; attempt < 8 && available > 0 && !fitted; attempt++) {
    let preview: string;
    if (wholeMayFit && !truncated && tokenizer.isWithin(whole, available)) preview = whole;
    else {
      truncated = true;
      spoolPath ??= input.spoolPath();
      const note = spoolPath ? `Full output: ${spoolPath}` : undefined;
      const source = {
        head: complete ? whole : captured.head,
        tail: complete ? '' : captured.tail,
        totalTokens: originalTokens,
        estimated: counted.estimated,
      };
      const budgeted = budgetHeadTail(source, available, tokenizer, note);
      // Without room for the whole spool path the preview would hide where the output went: go compact instead.
      if (note !== undefined && !budgeted.noteShown) break;
      preview = budgeted.text;
    }
    output = formatExecOutput({ ...parts, preview });
    shown = preview;
    const total = tokenizer.count(output);
    if (total <= limit) {
      fitted = true;
      break;
    }
    available -= Math.max(1, total - limit);
  }
  if (!fitted) {
    truncated = true;
    spoolPath ??= input.spoolPath();
    ({ output, preview: shown } = compactResponse({ ...parts, preview: '' }, spoolPath, originalTokens, limit, tokenizer));
  }
  const data: Record<string, unknown> = {};
  if (parts.sessionId !== undefined) data.session_id = parts.sessionId;
  if (parts.exitCode !== undefined) data.exit_code = parts.exitCode;
  Object.assign(data, { wall_time_ms: Math.round(input.wallTimeMs), original_token_count: originalTokens, truncated });
  if (spoolPath !== undefined) data.spool_path = spoolPath;
  return withCommandChunk(okResult(output, data), { output: shown, cancelled: input.cancelled === true });
}
