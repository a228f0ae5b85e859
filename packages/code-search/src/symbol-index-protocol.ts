import type { IndexStats } from './index-store.js';
import type { IndexedFile, LookupAnswer } from './index-lookups.js';
import type { AssistedFile } from './scan-assist.js';
import type { ResultType } from './code-search-schema.js';
import type { SymbolLookupRequest, TextLookupRequest } from './index-lookup-request.js';

/** A message from a SymbolIndex to its worker. */
export type WorkerRequest =
  | ({ id: number; type: 'lookup' } & SymbolLookupRequest)
  | ({ id: number; type: 'textLookup' } & TextLookupRequest)
  | { id: number; type: 'occurrences'; query: string; caseSensitive: boolean; paths: string[] }
  | {
      id: number;
      type: 'assist';
      query: string;
      paths: string[];
      resultTypes: ResultType[];
      maxResults: number;
      sizeFirst: boolean;
      slots: SharedArrayBuffer;
    }
  /** A scan started (the build waits) or ended; no answer. */
  | { id: 0; type: 'pause' | 'resume'; scan: number }
  | { id: number; type: 'stats' }
  | { id: number; type: 'close' };

/** A message from the worker; id 0 carries the build outcome. */
export type WorkerResponse =
  | { id: number; type: 'lookup'; answer: LookupAnswer }
  | { id: number; type: 'occurrences'; files: IndexedFile[] }
  /** One file of a shared scan, as soon as the worker read it; `assisted` follows the last. */
  | { id: number; type: 'assistedFile'; file: AssistedFile }
  | { id: number; type: 'assisted' }
  | { id: number; type: 'stats'; stats: IndexStats }
  | { id: number; type: 'closed' }
  | { id: number; type: 'ready' }
  | { id: number; type: 'failed'; message: string }
  | { id: number; type: 'error'; message: string };
