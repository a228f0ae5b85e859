import { randomUUID } from 'node:crypto';
import { ToolHostError, type Workspace } from 'toolhost';
import type { Entry } from '@openai/agents-core/sandbox';
import { checkedPath } from './workspace-files.js';

/** The manifest entry kinds a toolhost sandbox writes; every other kind is refused before anything is written. */
export const SUPPORTED_ENTRY_TYPES: readonly string[] = ['file', 'dir'];

/** A file or folder of a manifest, flattened with its workspace-relative path. */
type PlannedEntry = { path: string; entry: Entry };

function joinPath(parent: string, name: string): string {
  return parent ? `${parent}/${name}` : name;
}

async function plan(workspace: Workspace, path: string, entry: Entry, into: PlannedEntry[]): Promise<void> {
  if (!entry || typeof entry !== 'object' || !SUPPORTED_ENTRY_TYPES.includes(entry.type)) {
    const type = entry && typeof entry === 'object' ? entry.type : typeof entry;
    throw new ToolHostError(
      'unsupported',
      `manifest entry ${JSON.stringify(path)} is of type ${JSON.stringify(type)}; a toolhost sandbox supports only ${SUPPORTED_ENTRY_TYPES.map((name) => `"${name}"`).join(' and ')} entries`,
    );
  }
  if (entry.permissions !== undefined || entry.group !== undefined) {
    throw new ToolHostError(
      'unsupported',
      `manifest entry ${JSON.stringify(path)} sets permissions or a group, which a toolhost sandbox does not apply`,
    );
  }
  const relative = await checkedPath(workspace, path);
  if (!relative) throw new ToolHostError('unsupported', 'a manifest entry cannot replace the workspace root');
  into.push({ path: relative, entry });
  if (entry.type === 'dir') {
    for (const [name, child] of Object.entries(entry.children ?? {})) await plan(workspace, joinPath(relative, name), child, into);
  }
}

/** Creates an empty folder (and its parents) through the workspace's atomic writes: a marker file written, then removed. */
async function createDirectory(workspace: Workspace, path: string): Promise<void> {
  const stat = await workspace.stat(path);
  if (stat?.kind === 'directory') return;
  if (stat) throw new ToolHostError('unsupported', `manifest folder ${JSON.stringify(path)} would replace an existing ${stat.kind}`);
  const marker = `${path}/.toolhost-${randomUUID()}`;
  await workspace.writeFile(marker, new Uint8Array());
  await workspace.remove(marker);
}

/**
 * Writes manifest entries into a workspace: `file` entries atomically with their content, `dir` entries as folders
 * with their children. Every entry is checked first (kind, boundary); a refused one throws before anything is written.
 */
export async function materializeEntries(workspace: Workspace, entries: Readonly<Record<string, Entry>>): Promise<void> {
  const planned: PlannedEntry[] = [];
  for (const [path, entry] of Object.entries(entries)) await plan(workspace, path, entry, planned);
  for (const { path, entry } of planned) {
    if (entry.type === 'dir') await createDirectory(workspace, path);
    else if (entry.type === 'file') {
      const content = typeof entry.content === 'string' ? new TextEncoder().encode(entry.content) : entry.content;
      await workspace.writeFile(path, content);
    }
  }
}
