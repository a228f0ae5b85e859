/** The lines of the patch format that are not content. */
export const BEGIN = '*** Begin Patch';
export const END = '*** End Patch';
export const END_OF_FILE = '*** End of File';
export const HEADER = /^\*\*\*\s*(Add|Delete|Update) File:\s*(.*?)\s*$/;
export const MOVE = /^\*\*\*\s*Move to:\s*(.*?)\s*$/;

/**
 * The marker text of a line inside an Update body, or undefined when the line is a chunk line. A line that starts
 * with a space is ALWAYS context (its text is the rest), so ` *** Delete File: x` or ` *** End Patch` quoted from a
 * file stays context; any other padding (a tab, trailing spaces) is read as a padded marker, because such a line
 * cannot be a chunk line.
 */
export function updateBodyMarker(line: string): string | undefined {
  return line.startsWith(' ') ? undefined : line.trim();
}

/** Whether a marker names a file or frames a patch: what a diff of one file operation must never contain. */
export function isFileMarker(marker: string): boolean {
  return HEADER.test(marker) || MOVE.test(marker) || marker === BEGIN || marker === END;
}
