import { existsSync, mkdirSync, mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolHost } from 'toolhost';
import { symbolIndexCacheFile } from '@toolhost/code-search';
import { threadCount as threads } from '../helpers/proc-scan.js';

/** Resolves once `file` exists, woken by the folder's change events (no polling). */
function fileAppears(file: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  return new Promise((resolve) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if (name === basename(file) && existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

describe('the symbol index of the advanced host', () => {
  let root = '';
  let cacheFile = '';
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'symbol-index-host-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'src/profile.ts'),
      'export type ToolProfile = "default" | "advanced";\nexport const current: ToolProfile = "default";\n',
    );
    cacheFile = (await symbolIndexCacheFile(root, undefined))!;
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cacheFile, { force: true });
  });

  it('is built in the background from the start, without any call, and close() stops its worker', async () => {
    // Warm up what a process starts once (the libuv pool, grammars), so only the index worker changes the thread count.
    const warm = createToolHost({ workspace: root, profile: 'advanced' });
    expect((await warm.call('code_search', { query: 'ToolProfile' })).ok).toBe(true);
    await warm.close();
    rmSync(cacheFile, { force: true });
    const before = threads();

    const host = createToolHost({ workspace: root, profile: 'advanced' });
    // The worker writes the cache file once the whole workspace is indexed.
    await fileAppears(cacheFile);
    const result = await host.call('code_search', { query: 'ToolProfile', result_types: ['definition', 'usage'] });
    expect(result.output).toContain('definition src/profile.ts:1:13');
    expect(result.output).toContain('usage src/profile.ts:2:23');
    // An edit through apply_patch is part of the very next search's answer.
    const patch = await host.call('apply_patch', {
      input:
        '*** Begin Patch\n*** Add File: src/widget.ts\n+export function Widget(profile: ToolProfile) {}\n*** Update File: src/profile.ts\n@@\n-export const current: ToolProfile = "default";\n+export const current: ToolProfile = Widget("default");\n*** End Patch',
    });
    expect(patch.ok).toBe(true);
    const after = await host.call('code_search', { query: 'Widget', result_types: ['definition', 'usage'] });
    expect(after.output).toContain('definition src/widget.ts:1:17');
    expect(after.output).toContain('usage src/profile.ts:2:37');
    await host.close();
    expect(threads()).toBe(before);
  });

  it('is not started by the default profile', async () => {
    const before = threads();
    const host = createToolHost({ workspace: root, profile: 'default' });
    expect((await host.call('exec_command', { cmd: 'true' })).ok).toBe(true);
    expect(threads()).toBe(before);
    await host.close();
  });
});
