/** Maps UTF-16 offsets of one text to 1-based lines and columns, for ascending or random offsets. */
export interface LineIndex {
  /** 1-based line and column of `offset`. */
  locate(offset: number): { line: number; column: number; lineStart: number };
  /** The text of the line starting at `lineStart`, without its line break. */
  lineText(lineStart: number): string;
}

/** Builds the line-start table of `text` once. */
export function createLineIndex(text: string): LineIndex {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return {
    locate(offset) {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle] <= offset) low = middle;
        else high = middle - 1;
      }
      return { line: low + 1, column: offset - starts[low] + 1, lineStart: starts[low] };
    },
    lineText(lineStart) {
      const end = text.indexOf('\n', lineStart);
      const line = end === -1 ? text.slice(lineStart) : text.slice(lineStart, end);
      return line.endsWith('\r') ? line.slice(0, -1) : line;
    },
  };
}
