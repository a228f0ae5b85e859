import type { Workspace } from '@toolhost/core';
import type { ParsedPatch } from './patch-syntax.js';
import { concurrencyOf, runBounded } from './bounded-concurrency.js';
import { resolveTarget } from './resolve-target.js';

/**
 * The workspace as one plan reads it: each lstat, stat, realpath, readFile and readLink is made once a path and its
 * answer (or error) given again. A plan writes nothing, so it sees the same files as reading each anew would.
 */
export function planReads(workspace: Workspace): Workspace {
  const answers = new Map<string, Promise<unknown>>();
  const once =
    <T>(name: string, call: (path: string) => Promise<T>) =>
    (path: string): Promise<T> => {
      const key = `${name}\u0000${path}`;
      let answer = answers.get(key) as Promise<T> | undefined;
      if (!answer) {
        answer = call(path);
        // Awaited by whoever asks again; a read made ahead that nobody asks for must not count as unhandled.
        answer.catch(() => {});
        answers.set(key, answer);
      }
      return answer;
    };
  const cached: Partial<Workspace> = {
    lstat: once('lstat', (path) => workspace.lstat(path)),
    stat: once('stat', (path) => workspace.stat(path)),
    realpath: once('realpath', (path) => workspace.realpath(path)),
    readFile: once('readFile', (path) => workspace.readFile(path)),
    ...(workspace.readLink ? { readLink: once('readLink', (path) => workspace.readLink!(path)) } : {}),
  };
  // Every other member is the workspace's own, called on the workspace (a class's private fields keep working).
  return new Proxy(workspace, {
    get(target, property) {
      if (Object.hasOwn(cached, property)) return cached[property as keyof Workspace];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Resolves and reads the files a patch names a few at a time, through `reads` (see {@link planReads}), so planning
 * them in order then waits on no file system; errors are left for planning to meet where it would have.
 */
export async function readAhead(reads: Workspace, patch: ParsedPatch): Promise<void> {
  const operations = patch.operations;
  await runBounded(operations.length, concurrencyOf(reads), async (index) => {
    const operation = operations[index]!;
    const target = await resolveTarget(reads, operation.path);
    if (!target.ok || target.kind !== 'file' || operation.kind === 'add') return;
    await Promise.all([reads.readFile(target.path), reads.stat(target.path)]);
  }).catch(() => {});
}
