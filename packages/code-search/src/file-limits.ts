/** Files over this size are searched as text only (not parsed). */
export const MAX_PARSE_BYTES = 2 * 1024 * 1024;
/** How many bytes are checked for NUL to call a file binary. */
export const BINARY_PROBE_BYTES = 8192;

/** True when a NUL byte sits in the file's first {@link BINARY_PROBE_BYTES} bytes. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1;
}
/** An mtime this close to the moment a file was read may hide a later edit of the same size within the same mtime (racy-git rule). */
export const RACY_MARGIN_MS = 2000;
