/**
 * Terminal output that renders to itself: printable ASCII and CR LF pairs only. On a terminal whose cursor starts at
 * the beginning of a line, such bytes render as their own text with `\r\n` → `\n` (wrapped lines join back into one,
 * and written spaces are kept as the emulator keeps them), so they need no terminal emulator.
 */
export interface PlainTerminalText {
  /** The rendered text: `\r\n` → `\n`. */
  text: string;
  /** True when the chunk ended with a lone `\r` (left out of `text`): the next chunk must start with `\n`. */
  pendingCarriageReturn: boolean;
}

/** Renders `chunk` as plain terminal text, or returns undefined when it holds anything else (escapes, controls, UTF-8, a lone CR or LF). */
export function renderPlainTerminalText(chunk: Uint8Array, afterCarriageReturn: boolean): PlainTerminalText | undefined {
  const length = chunk.length;
  if (afterCarriageReturn && (length === 0 || chunk[0] !== 0x0a)) return undefined;
  let pendingCarriageReturn = false;
  for (let index = afterCarriageReturn ? 1 : 0; index < length; index++) {
    const byte = chunk[index]!;
    if (byte >= 0x20 && byte <= 0x7e) continue;
    if (byte === 0x0d) {
      if (index + 1 === length) {
        pendingCarriageReturn = true;
        break;
      }
      if (chunk[index + 1] === 0x0a) {
        index++;
        continue;
      }
    }
    return undefined;
  }
  const end = pendingCarriageReturn ? length - 1 : length;
  let text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1', 0, end);
  if (afterCarriageReturn) text = '\r' + text;
  text = text.replace(/\r\n/g, '\n');
  return { text, pendingCarriageReturn };
}
