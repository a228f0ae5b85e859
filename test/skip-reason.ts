// Why a test or suite may be skipped, kept in its meta so that the run's closing line (skipped-tests-reporter.ts) can
// say what was skipped, why, and what runs it.

/** What a skipped test lacked, and the command that provides it. */
export interface SkipReason {
  /** What is missing, in a few words. */
  why: string;
  /** The command that makes it available, when one does. */
  enable?: string;
}

declare module 'vitest' {
  interface TaskMeta {
    skipReason?: SkipReason;
  }
}

/** Options for `describe` or `test`: skipped when `missing` says what is missing, with the reason in the meta. */
export function skipWhen(missing: string | undefined, enable?: string): { skip: boolean; meta: { skipReason: SkipReason } } {
  return { skip: missing !== undefined, meta: { skipReason: { why: missing ?? '', enable } } };
}
