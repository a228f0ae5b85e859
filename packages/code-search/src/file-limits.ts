/** Files over this size are searched as text only (not parsed). */
export const MAX_PARSE_BYTES = 2 * 1024 * 1024;
/** How many bytes are checked for NUL to call a file binary. */
export const BINARY_PROBE_BYTES = 8192;
