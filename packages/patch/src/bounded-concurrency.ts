/** How many file calls run at once where the workspace does not say (a local disk: each waits on its own system call). */
const DEFAULT_CONCURRENCY = 8;

/** How many file calls to keep going on a workspace: as many as it asks for, else {@link DEFAULT_CONCURRENCY}. */
export function concurrencyOf(workspace: { concurrency?: number }): number {
  return workspace.concurrency ?? DEFAULT_CONCURRENCY;
}

/**
 * Runs `task` for every index below `count`, at most `limit` at a time, starting them in index order; resolves once
 * every task started has settled, rejecting with the first error (in index order) if any failed. With `stopOnError`,
 * no task starts after one has failed.
 */
export async function runBounded(count: number, limit: number, task: (index: number) => Promise<void>, stopOnError = false): Promise<void> {
  const errors: { index: number; error: unknown }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count && !(stopOnError && errors.length > 0)) {
      const index = next++;
      try {
        await task(index);
      } catch (error) {
        errors.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  if (errors.length > 0) throw errors.sort((a, b) => a.index - b.index)[0]!.error;
}
