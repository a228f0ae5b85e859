import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Files of a folder, by relative path with `/` separators: what a scenario starts from or ends with. */
export type FileTree = Record<string, Uint8Array>;

/** What the reference apply_patch left behind: its exit status, its output and the files of its folder. */
export interface ReferenceOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  files: FileTree;
  /** Folders left in the tree (relative paths), so an emptied folder counts as the reference scenarios count it. */
  folders: string[];
}

/**
 * The path of the native `codex` binary shipped by the `@openai/codex` devDependency for this platform, or the reason
 * there is none (a platform without a published binary, or the optional platform package not installed).
 */
export function locateCodexBinary(): { path: string } | { missing: string } {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve('@openai/codex/package.json');
  } catch {
    return { missing: '@openai/codex is not installed (a root devDependency: run npm install)' };
  }
  // The CLI package names its native build per platform; the name is computed, as its launcher does.
  const platformPackage = `@openai/codex-${process.platform}-${process.arch}`;
  let platformRoot: string;
  try {
    platformRoot = dirname(createRequire(manifest).resolve(`${platformPackage}/package.json`));
  } catch {
    return { missing: `no ${platformPackage} build of @openai/codex is installed for ${process.platform}-${process.arch}` };
  }
  const vendor = join(platformRoot, 'vendor');
  const triples = existsSync(vendor) ? readdirSync(vendor) : [];
  for (const triple of triples) {
    for (const name of ['codex', 'codex.exe']) {
      const candidate = join(vendor, triple, 'bin', name);
      if (existsSync(candidate)) return { path: candidate };
    }
  }
  return { missing: `${platformPackage} has no codex binary under vendor/` };
}

function snapshot(root: string): { files: FileTree; folders: string[] } {
  const files: FileTree = {};
  const folders: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = prefix ? `${prefix}/${name}` : name;
      if (statSync(full).isDirectory()) {
        folders.push(rel);
        walk(full, rel);
      } else files[rel] = new Uint8Array(readFileSync(full));
    }
  };
  walk(root, '');
  return { files, folders };
}

/** Writes `files` into `root`, creating parent folders. */
export function writeTree(root: string, files: FileTree): void {
  for (const [rel, data] of Object.entries(files)) {
    const full = join(root, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, data);
  }
}

/** The files and folders under `root`. */
export function readTree(root: string): { files: FileTree; folders: string[] } {
  return snapshot(root);
}

/**
 * Runs the reference apply_patch (the codex binary's hidden `--codex-run-as-apply-patch` mode, which its own
 * `apply_patch` alias dispatches to) on `patch` in a fresh folder holding `files`, and returns what it left.
 */
export function runReferenceApplyPatch(binary: string, files: FileTree, patch: string): ReferenceOutcome {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-codex-ref-'));
  try {
    const root = join(base, 'ws');
    const home = join(base, 'home');
    mkdirSync(root);
    mkdirSync(home);
    writeTree(root, files);
    const run = spawnSync(binary, ['--codex-run-as-apply-patch', patch], {
      cwd: root,
      // A home of its own: the binary reads no user configuration and writes nothing outside the temp folder.
      env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: join(home, '.codex') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (run.error) throw run.error;
    return { exitCode: run.status ?? -1, stdout: run.stdout, stderr: run.stderr, ...snapshot(root) };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
