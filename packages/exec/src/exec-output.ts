/** The parts of an exec_command / write_stdin response. */
export interface ExecOutputParts {
  /** 6 lower-case hex digits identifying this chunk of output. */
  chunkId: string;
  wallTimeMs: number;
  /** Set when the process has exited. */
  exitCode?: number;
  /** Set when the process is still running. */
  sessionId?: number;
  originalTokenCount: number;
  /** True when `originalTokenCount` was extrapolated from samples (shown as `~N`); small outputs are always counted exactly. */
  originalTokenCountEstimated?: boolean;
  /** The budgeted preview of the output. */
  preview: string;
  /** Extra lines shown before `Output:` (e.g. a pruned session). */
  notes?: string[];
}

/** Formats the Codex-compatible response text of exec_command and write_stdin. */
export function formatExecOutput(parts: ExecOutputParts): string {
  const lines = [`Chunk ID: ${parts.chunkId}`, `Wall time: ${(parts.wallTimeMs / 1000).toFixed(4)} seconds`];
  if (parts.exitCode !== undefined) lines.push(`Process exited with code ${parts.exitCode}`);
  else if (parts.sessionId !== undefined) lines.push(`Process running with session ID ${parts.sessionId}`);
  lines.push(`Original token count: ${parts.originalTokenCountEstimated ? '~' : ''}${parts.originalTokenCount}`);
  for (const note of parts.notes ?? []) lines.push(note);
  lines.push('Output:', parts.preview);
  return lines.join('\n');
}

/** A random 6-hex-digit chunk id. */
export function newChunkId(): string {
  return Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
}
