/**
 * A file's bytes: whole, or as pieces that follow one another. A new file made from ranges of an old one is handed to
 * a workspace as pieces, so writing it copies no bytes in memory.
 */
export type FileBytes = Uint8Array | readonly Uint8Array[];

/** True when `data` is given as pieces. */
export function isPieces(data: FileBytes): data is readonly Uint8Array[] {
  return Array.isArray(data);
}

/** How many bytes `data` holds. */
export function fileBytesLength(data: FileBytes): number {
  if (!isPieces(data)) return data.length;
  let length = 0;
  for (const piece of data) length += piece.length;
  return length;
}

/** The bytes of `data` in one array: `data` itself when whole, else the pieces copied into a new array. */
export function joinFileBytes(data: FileBytes): Uint8Array {
  if (!isPieces(data)) return data;
  if (data.length === 1) return data[0]!;
  const joined = new Uint8Array(fileBytesLength(data));
  let at = 0;
  for (const piece of data) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}
