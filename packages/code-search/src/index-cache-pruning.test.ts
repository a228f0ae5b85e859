import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyntaxParser, nodeGrammarSource } from './grammar-loader.js';
import { pruneIndexCache } from './index-cache-pruning.js';
import { createIndexStore } from './index-store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();
/** An index file name as symbolIndexCacheFile makes them, from one letter. */
const index = (letter: string) => `index-${letter.repeat(24)}.v8`;

describe('pruning the index cache folder', () => {
  let folder = '';
  const put = (name: string, bytes: number, ageMs: number) => {
    writeFileSync(join(folder, name), Buffer.alloc(bytes));
    const time = new Date(now - ageMs);
    utimesSync(join(folder, name), time, time);
  };
  const left = () => readdirSync(folder).sort();

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'index-cache-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('removes indexes unused past the age limit, then the least recently used past the size limit', () => {
    put(index('a'), 100, 0);
    put(index('b'), 10, 31 * DAY);
    put(index('c'), 300, 1 * HOUR);
    put(index('d'), 300, 2 * HOUR);
    put(index('e'), 300, 3 * HOUR);
    // Small enough to fit, but used before e: the least recently used go first, whatever their size.
    put(index('f'), 10, 4 * HOUR);
    const removed = pruneIndexCache(folder, index('a'), { maxAgeMs: 30 * DAY, maxBytes: 750 }, now);
    expect(removed.sort()).toEqual([index('b'), index('e'), index('f')]);
    expect(left()).toEqual([index('a'), index('c'), index('d')]);
  });

  it('keeps the index just saved even when it alone passes the limits', () => {
    put(index('a'), 1000, 40 * DAY);
    put(index('b'), 10, 0);
    expect(pruneIndexCache(folder, index('a'), { maxAgeMs: DAY, maxBytes: 100 }, now)).toEqual([index('b')]);
    expect(left()).toEqual([index('a')]);
  });

  it('removes temporary files a writer left over an hour ago, and nothing that the index did not write', () => {
    put(index('a'), 10, 0);
    put(`${index('b')}.4242.k3x9.tmp`, 10, 2 * HOUR);
    put(`${index('c')}.4242.k3x9.tmp`, 10, 60_000);
    put('notes.txt', 10, 400 * DAY);
    put('index-not-hex.v8', 10, 400 * DAY);
    mkdirSync(join(folder, index('d')));
    expect(pruneIndexCache(folder, index('a'), { maxAgeMs: DAY, maxBytes: 1 }, now)).toEqual([`${index('b')}.4242.k3x9.tmp`]);
    expect(left()).toEqual([index('a'), `${index('c')}.4242.k3x9.tmp`, index('d'), 'index-not-hex.v8', 'notes.txt']);
  });

  it('defaults to 30 days and 512 MiB', () => {
    put(index('a'), 10, 0);
    put(index('b'), 10, 29 * DAY);
    put(index('c'), 10, 31 * DAY);
    expect(pruneIndexCache(folder, index('a'), {}, now)).toEqual([index('c')]);
  });

  it('answers nothing for a folder that is gone', () => {
    expect(pruneIndexCache(join(folder, 'missing'), index('a'))).toEqual([]);
  });
});

describe('the index store and its cache folder', () => {
  let root = '';
  let cache = '';
  const parser = createSyntaxParser(nodeGrammarSource);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'index-cache-root-'));
    cache = mkdtempSync(join(tmpdir(), 'index-cache-folder-'));
    writeFileSync(join(root, 'a.ts'), 'export function Alpha() {}\n');
    const old = new Date(now - HOUR);
    utimesSync(join(root, 'a.ts'), old, old);
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });
  afterAll(() => parser.dispose());

  it('prunes the folder when it saves, and a load marks the index as used', async () => {
    const stale = join(cache, index('b'));
    writeFileSync(stale, Buffer.alloc(10));
    const longAgo = new Date(now - 40 * DAY);
    utimesSync(stale, longAgo, longAgo);
    const cacheFile = join(cache, index('a'));
    const first = createIndexStore({ root, parser, cacheFile });
    await first.build();
    first.save();
    expect(existsSync(cacheFile)).toBe(true);
    expect(existsSync(stale)).toBe(false);

    utimesSync(cacheFile, longAgo, longAgo);
    const second = createIndexStore({ root, parser, cacheFile, cacheLimits: { maxAgeMs: DAY } });
    await second.build();
    expect(second.stats().fromCache).toBe(true);
    expect(statSync(cacheFile).mtimeMs).toBeGreaterThan(now - HOUR);
  });
});
