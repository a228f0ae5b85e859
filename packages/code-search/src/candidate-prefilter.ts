import type { Workspace } from '@toolhost/core';

/** Narrows the files whose content may contain the query (e.g. ripgrep on a disk workspace); undefined means "no opinion". */
export type CandidatePrefilter = (request: {
  workspace: Workspace;
  query: string;
  caseSensitive: boolean;
  start: string;
  /** Lower-case extensions (without the dot) the search is limited to, when `file_types` was given. */
  extensions?: ReadonlySet<string>;
  signal?: AbortSignal;
}) => Promise<ReadonlySet<string> | undefined>;
