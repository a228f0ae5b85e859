/** Errors meaning "there is nothing at this path" (a name too long to exist included). */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG']);

/** True for the errors meaning "there is nothing at this path". */
export function isMissing(error: unknown): boolean {
  return MISSING.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** Awaits a file-system call, turning "nothing at this path" errors into undefined. */
export async function optional<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
