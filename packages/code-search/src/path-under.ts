/** True when the workspace-relative `path` is `start` or inside it; every path is under '' (the workspace root). */
export function isUnder(start: string, path: string): boolean {
  return start === '' || path === start || path.startsWith(`${start}/`);
}
