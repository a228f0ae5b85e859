// Entry of the symbol index worker thread (a separate build entry): builds the index of one disk workspace in the
// background and answers the requests of its SymbolIndex client.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { createSyntaxParser, nodeGrammarSource, type GrammarSource } from './grammar-loader.js';
import { createChangeJournal } from './change-journal.js';
import { createIndexStore } from './index-store.js';
import { assistScan } from './scan-assist-worker.js';
import { createBuildGate } from './build-gate.js';
import type { IndexCacheLimits } from './index-cache-limits.js';
import type { WorkerRequest, WorkerResponse } from './symbol-index-protocol.js';

const { root, cacheFile, cacheLimits, watch } = workerData as {
  root: string;
  cacheFile?: string;
  cacheLimits?: IndexCacheLimits;
  watch: boolean;
};
const port = parentPort!;
/**
 * Grammar bytes read synchronously, handed to web-tree-sitter as bytes: its own read of a path (fs/promises) still in
 * flight when close() terminates this thread would leave the grammar file's descriptor open in the process for good.
 */
const grammarSource: GrammarSource = async (grammar) => {
  const source = await nodeGrammarSource(grammar);
  return typeof source === 'string' ? readFileSync(source) : source;
};
const parser = createSyntaxParser(grammarSource);
const journal = watch ? createChangeJournal(root) : undefined;
/** Scans in progress in the client hold the build back (their pause messages, and the files the worker scans for them). */
const gate = createBuildGate();
const openHolds = new Map<number, () => void>();
let building = true;
/** close() was asked: the build stops at its next file, so the thread can end by itself. */
let closing = false;
/** Between two files of the build: messages are handled, and while a scan runs the build waits for it. */
const yieldNow = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  if (building) await gate.passed();
  // Never settles and holds nothing open: once the build stops here the thread's event loop can empty.
  if (closing) await new Promise<never>(() => {});
};
const store = createIndexStore({ root, parser, cacheFile, cacheLimits, journal, yieldNow });
const SAVE_DELAY_MS = 5000;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

const scheduleSave = () => {
  saveTimer ??= setTimeout(() => {
    saveTimer = undefined;
    store.save();
  }, SAVE_DELAY_MS);
};

const reply = (response: WorkerResponse) => port.postMessage(response);

store.build().then(
  () => {
    building = false;
    store.save();
    reply({ id: 0, type: 'ready' });
  },
  (error: unknown) => {
    building = false;
    reply({ id: 0, type: 'failed', message: error instanceof Error ? error.message : String(error) });
  },
);

port.on('message', (request: WorkerRequest) => {
  void (async () => {
    try {
      switch (request.type) {
        case 'lookup':
        case 'textLookup': {
          const answer = request.type === 'lookup' ? await store.lookup(request) : await store.textLookup(request);
          scheduleSave();
          return reply({ id: request.id, type: 'lookup', answer });
        }
        case 'pause':
          openHolds.set(request.scan, gate.hold());
          return;
        case 'resume':
          openHolds.get(request.scan)?.();
          openHolds.delete(request.scan);
          return;
        case 'assist': {
          const end = gate.hold();
          try {
            await assistScan(root, parser, { ...request, slots: new Int32Array(request.slots) }, (file) =>
              reply({ id: request.id, type: 'assistedFile', file }),
            );
            return reply({ id: request.id, type: 'assisted' });
          } finally {
            end();
          }
        }
        case 'occurrences':
          return reply({ id: request.id, type: 'occurrences', files: store.occurrences(request) });
        case 'stats':
          return reply({ id: request.id, type: 'stats', stats: store.stats() });
        case 'close':
          closing = true;
          if (saveTimer) clearTimeout(saveTimer);
          store.save();
          journal?.close();
          parser.dispose();
          reply({ id: request.id, type: 'closed' });
          port.close();
          return;
      }
    } catch (error) {
      // Messages without an answer (id 0) get none; id 0 answers are the build's outcome.
      if (request.id !== 0) reply({ id: request.id, type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
