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

/** One file operation of a parsed patch. */
export type PatchOperation =
  | { kind: 'add'; path: string; lines: string[]; line: number }
  | { kind: 'delete'; path: string; line: number }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[]; line: number };

/** A parsed patch: its operations in order. */
export interface ParsedPatch {
  operations: PatchOperation[];
}
