import { ToolHostError as CoreToolHostError, createMemoryWorkspace } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { SerialQueue, ToolHostError, resolveWorkspacePath, type Workspace } from './index.js';

// Adapters import only the facade: what they need of core is re-exported here, the same objects, not copies.
describe('the facade re-exports what adapters need of core', () => {
  it('ToolHostError is core’s class, so errors thrown below are caught by an adapter’s instanceof and is()', () => {
    expect(ToolHostError).toBe(CoreToolHostError);
    const thrown = new CoreToolHostError('invalid_options', 'root must be absolute');
    expect(thrown).toBeInstanceOf(ToolHostError);
    expect(ToolHostError.is(thrown)).toBe(true);
    expect(thrown.code).toBe('invalid_options');
  });

  it('SerialQueue runs tasks one at a time in order, and a failed task does not stop the next', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    let releaseFirst: () => void = () => {};
    const first = queue.run(async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first ends');
      throw new Error('first failed');
    });
    const second = queue.run(async () => {
      order.push('second runs');
      return 2;
    });
    await Promise.resolve();
    expect(order).toEqual(['first starts']);
    releaseFirst();
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBe(2);
    expect(order).toEqual(['first starts', 'first ends', 'second runs']);
  });

  it('resolveWorkspacePath checks a path against a Workspace: inside, escaping with "..", or through a symlink out', async () => {
    const memory = createMemoryWorkspace({ 'src/a.ts': 'export {};\n' });
    memory.symlink('out', '/etc');
    const workspace: Workspace = memory;
    await expect(resolveWorkspacePath(workspace, 'src/a.ts')).resolves.toEqual({
      ok: true,
      relative: 'src/a.ts',
      absolute: '/workspace/src/a.ts',
    });
    await expect(resolveWorkspacePath(workspace, '../secret')).resolves.toEqual({
      ok: false,
      message: 'path "../secret" escapes the workspace with ".."',
    });
    await expect(resolveWorkspacePath(workspace, 'out/passwd')).resolves.toEqual({
      ok: false,
      message: 'path "out/passwd" goes through symlink out that leads outside the workspace',
    });
  });
});
