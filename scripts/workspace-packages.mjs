// The workspace packages named by the root package.json `workspaces` globs, in a stable order.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Absolute root of the repository. */
export const repositoryRoot = resolve(import.meta.dirname, '..');

/** Every workspace package: `{ folder, manifest }`, folders expanded from `workspaces` (a trailing `/*` is a glob). */
export function workspacePackages(root = repositoryRoot) {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const folders = new Set();
  for (const pattern of workspaces) {
    if (pattern.endsWith('/*')) {
      const parent = join(root, pattern.slice(0, -2));
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory() && existsSync(join(parent, entry.name, 'package.json'))) folders.add(join(parent, entry.name));
      }
    } else {
      folders.add(join(root, pattern));
    }
  }
  return [...folders].sort().map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) }));
}
