import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Text of every sentinel file: a patch that reaches one of them would match and change it. */
export const SENTINEL_TEXT = 'hello\nsentinel line\n';

/** Files of the sentinel tree outside the workspace (relative to `outside`). */
const SENTINEL_FILES: Record<string, string> = {
  'secret.txt': SENTINEL_TEXT,
  'dir/nested.txt': SENTINEL_TEXT,
  'dir/sub/deep.txt': SENTINEL_TEXT,
  'inside.txt': SENTINEL_TEXT,
  'src/a.ts': 'export function hello() { return "sentinel"; }\n',
};

/** Files every workspace starts with (relative to the workspace). */
export const BASELINE_FILES: Record<string, string> = {
  'inside.txt': 'hello\ninside line\n',
  'src/a.ts': 'export function hello() { return 1; }\n',
  'src/b.py': 'def hello():\n    return 2\n',
};

/**
 * A temp tree `root/a/b/c/{workspace,outside,workspace-evil,home}` plus files at every level above, so that
 * writes escaping by up to four `..` land somewhere checksummed.
 */
export interface Sandbox {
  /** The temp root holding everything. */
  readonly root: string;
  /** `root/a/b/c`: the parent of the workspace. */
  readonly parent: string;
  readonly workspace: string;
  /** The sentinel folder beside the workspace. */
  readonly outside: string;
  /** A sibling whose name starts with the workspace's name (prefix-confusion target). */
  readonly evil: string;
  /** A fake home folder (the tests point HOME at it). */
  readonly home: string;
  /** Checksum of every byte, name, mode and link target under `root` except the workspace. */
  checksumOutside(): string;
  /** Bytes outside the workspace that differ from the tree as it was built. */
  bytesChangedOutside(): number;
  /** Per-file sizes and hashes of everything outside the workspace. */
  snapshotOutside(): Map<string, { size: number; hash: string }>;
  /** Lists everything outside the workspace (for failure messages). */
  listOutside(): string[];
  /** Empties the workspace and writes the baseline files again. */
  resetWorkspace(): void;
  /** Rebuilds everything outside the workspace (after a test caught an escape). */
  restoreOutside(): void;
  /** Removes everything. */
  remove(): void;
}

function writeTree(base: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(base, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
  }
}

/**
 * Hashes a tree: names, kinds, modes, file bytes and symlink targets (never followed); `skip` paths are left out;
 * `directories: false` ignores folders themselves (so only empty folders appearing or vanishing goes unseen).
 */
export function checksumTree(root: string, skip: ReadonlySet<string> = new Set(), options: { directories?: boolean } = {}): string {
  const withDirectories = options.directories ?? true;
  const hash = createHash('sha256');
  const visit = (path: string, label: string) => {
    if (skip.has(path)) return;
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      hash.update(`${label}\0missing\n`);
      return;
    }
    const mode = (stats.mode & 0o7777).toString(8);
    if (stats.isSymbolicLink()) hash.update(`${label}\0link\0${readlinkSync(path)}\n`);
    else if (stats.isDirectory()) {
      if (withDirectories) hash.update(`${label}\0dir\0${mode}\n`);
      for (const name of readdirSync(path).sort()) visit(join(path, name), `${label}/${name}`);
    } else if (stats.isFile()) {
      hash.update(`${label}\0file\0${mode}\0${stats.size}\0`);
      hash.update(readFileSync(path));
      hash.update('\n');
    } else hash.update(`${label}\0other\0${mode}\n`);
  };
  visit(root, '.');
  return hash.digest('hex');
}

/** Lists a tree as `path kind size` lines (never following links), for failure messages. */
export function listTree(root: string, skip: ReadonlySet<string> = new Set()): string[] {
  const lines: string[] = [];
  const visit = (path: string, label: string) => {
    if (skip.has(path)) return;
    const stats = lstatSync(path);
    if (stats.isDirectory()) {
      lines.push(`${label}/`);
      for (const name of readdirSync(path).sort()) visit(join(path, name), label ? `${label}/${name}` : name);
    } else lines.push(`${label} ${stats.isSymbolicLink() ? `-> ${readlinkSync(path)}` : `${stats.size} bytes`}`);
  };
  visit(root, '');
  return lines;
}

/** Size of every file under a tree (links and folders count 0), keyed by path, with a content hash. */
export function snapshotTree(root: string, skip: ReadonlySet<string> = new Set()): Map<string, { size: number; hash: string }> {
  const files = new Map<string, { size: number; hash: string }>();
  const visit = (path: string, label: string) => {
    if (skip.has(path)) return;
    const stats = lstatSync(path);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name), `${label}/${name}`);
    else if (stats.isFile()) files.set(label, { size: stats.size, hash: createHash('sha256').update(readFileSync(path)).digest('hex') });
    else files.set(label, { size: 0, hash: stats.isSymbolicLink() ? `link:${readlinkSync(path)}` : 'other' });
  };
  visit(root, '.');
  return files;
}

/** Bytes of the files that appeared, vanished or changed between two snapshots (the larger size of each). */
export function bytesChanged(
  before: Map<string, { size: number; hash: string }>,
  after: Map<string, { size: number; hash: string }>,
): number {
  let total = 0;
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old) total += Math.max(1, entry.size);
    else if (old.hash !== entry.hash) total += Math.max(1, entry.size, old.size);
  }
  for (const [path, entry] of before) if (!after.has(path)) total += Math.max(1, entry.size);
  return total;
}

/** Creates a sandbox with its sentinel tree and a fresh workspace. */
export function createSandbox(prefix = 'toolhost-reliability-'): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const parent = join(root, 'a', 'b', 'c');
  const workspace = join(parent, 'workspace');
  const outside = join(parent, 'outside');
  const evil = join(parent, 'workspace-evil');
  const home = join(parent, 'home');
  const buildOutside = () => {
    for (const folder of [workspace, outside, evil, home]) mkdirSync(folder, { recursive: true });
    writeTree(outside, SENTINEL_FILES);
    chmodSync(join(outside, 'secret.txt'), 0o600);
    writeTree(evil, { x: SENTINEL_TEXT });
    writeTree(home, { '.profile': SENTINEL_TEXT, '.ssh/authorized_keys': SENTINEL_TEXT });
    writeTree(root, {
      'top.txt': SENTINEL_TEXT,
      'a/level1.txt': SENTINEL_TEXT,
      'a/b/level2.txt': SENTINEL_TEXT,
      'a/b/c/level3.txt': SENTINEL_TEXT,
    });
  };
  const restoreOutside = () => {
    const keep: Record<string, string> = { [root]: 'a', [join(root, 'a')]: 'b', [join(root, 'a', 'b')]: 'c', [parent]: 'workspace' };
    for (const [folder, kept] of Object.entries(keep)) {
      for (const name of readdirSync(folder)) if (name !== kept) rmSync(join(folder, name), { recursive: true, force: true });
    }
    buildOutside();
  };
  buildOutside();
  const skip = new Set([workspace]);
  const pristine = snapshotTree(root, skip);
  const resetWorkspace = () => {
    for (const name of readdirSync(workspace)) rmSync(join(workspace, name), { recursive: true, force: true });
    writeTree(workspace, BASELINE_FILES);
  };
  resetWorkspace();
  return {
    root,
    parent,
    workspace,
    outside,
    evil,
    home,
    checksumOutside: () => checksumTree(root, skip),
    listOutside: () => listTree(root, skip),
    snapshotOutside: () => snapshotTree(root, skip),
    bytesChangedOutside: () => bytesChanged(pristine, snapshotTree(root, skip)),
    resetWorkspace,
    restoreOutside,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
