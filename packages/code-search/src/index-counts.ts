import type { FileEntry } from './file-entry.js';

/** What the entries of an index hold: parsed files, identifier nodes, and the bytes of their arrays. */
export interface IndexCounts {
  parsed: number;
  occurrences: number;
  /** Bytes of the per-file arrays outside the JavaScript heap: word ids, identifier nodes and trigram filters. */
  arrayBytes: number;
}

/** Counts what `entries` hold. */
export function countEntries(entries: Iterable<FileEntry>): IndexCounts {
  let parsed = 0;
  let occurrences = 0;
  let arrayBytes = 0;
  for (const entry of entries) {
    if (entry.kind === 'parsed') parsed++;
    // Each identifier node takes two numbers: its start and its name.
    occurrences += (entry.occurrences?.length ?? 0) / 2;
    arrayBytes += (entry.folds?.byteLength ?? 0) + (entry.occurrences?.byteLength ?? 0) + (entry.grams?.byteLength ?? 0);
  }
  return { parsed, occurrences, arrayBytes };
}
