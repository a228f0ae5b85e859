/** One line of an update chunk: context (`' '`), removed (`'-'`) or added (`'+'`). */
export interface ChunkLine {
  kind: ' ' | '-' | '+';
  text: string;
  /** 1-based line number in the patch text. */
  line: number;
}

/** One `@@` chunk of an Update File operation. */
export interface PatchChunk {
  /** `@@ <anchor>` lines, in order; each narrows the search to what follows the previous one. */
  anchors: string[];
  lines: ChunkLine[];
  /** True when the chunk ended with `*** End of File`. */
  endOfFile: boolean;
  /** 1-based line number where the chunk starts in the patch text. */
  line: number;
}

/**
 * One file operation, as data: what the patch engine applies. `line` is where the operation starts in the text the
 * model sent (patch or diff), for reports; operations built in code have none.
 */
export type PatchOperation =
  /** Creates a file with exactly `content` (no line ending is added or changed). */
  | { kind: 'add'; path: string; content: string; line?: number }
  | { kind: 'delete'; path: string; line?: number }
  /**
   * Changes lines by chunks of context, removed and added lines; `moveTo` renames the file too. With `v4aDiff` (and no
   * chunks) the change is that V4A diff, read and matched as the OpenAI Agents SDK's `applyDiff` does.
   */
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[]; v4aDiff?: string; line?: number }
  /**
   * Replaces the one occurrence of `oldText` with `newText`, byte for byte; refused when it occurs zero or several times.
   * With `at`, replaces the `oldText` found at that offset of the text (BOM excluded), refused when the text there
   * differs, and writes `newText` exactly as given (no line ending is changed; `oldText` may be empty).
   */
  | { kind: 'replace'; path: string; oldText: string; newText: string; at?: number; line?: number }
  /** Inserts `text` as whole lines after line `afterLine` (0: at the top), in the file's line ending. */
  | { kind: 'insert'; path: string; afterLine: number; text: string; line?: number };

/** A parsed patch: its operations in order. */
export interface ParsedPatch {
  operations: PatchOperation[];
}
