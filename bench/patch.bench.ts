// apply_patch: a 500-hunk patch on a 50,000-line file, in-process and warm, against `git apply` of the equivalent
// unified diff in the same run (temp git repo). Both read and write the file on disk.
// Run: npm run bench -- patch
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createNodeWorkspace } from '@toolhost/core/node';
import { applyPatch, PathLocks } from '@toolhost/patch';

const LINES = 50_000;
const HUNKS = 500;
const WARMUP = 5;
const ROUNDS = 25;

/** A code-like file: mostly distinct lines, with the braces and blank lines real code repeats. */
function generateFile(): string[] {
  const lines: string[] = [];
  for (let i = 0; lines.length < LINES; i++) {
    lines.push(`export function handler${i}(input: Input${i % 7}): Output {`);
    lines.push(`  const value = compute(input.field${i % 13}, ${i});`);
    lines.push(`  if (value > ${i % 100}) {`);
    lines.push(`    log('handler${i} over limit', value);`);
    lines.push('  }');
    lines.push(`  return { id: ${i}, value };`);
    lines.push('}');
    lines.push('');
  }
  return lines.slice(0, LINES);
}

interface Edit {
  start: number;
  removed: number;
  added: string[];
}

/** One edit every 100 lines: replace the `const value` line, add a line after it. */
function generateEdits(lines: readonly string[]): Edit[] {
  const edits: Edit[] = [];
  const spacing = Math.floor(LINES / HUNKS);
  for (let h = 0; h < HUNKS; h++) {
    let start = h * spacing + 40;
    while (!lines[start].startsWith('  const value')) start++;
    const id = lines[start].match(/, (\d+)\);$/)![1];
    edits.push({ start, removed: 1, added: [`  const value = computeChecked(input, ${id});`, `  trace('handler${id}', value);`] });
  }
  return edits;
}

function applyEdits(lines: readonly string[], edits: readonly Edit[]): string[] {
  const out: string[] = [];
  let index = 0;
  for (const edit of edits) {
    for (; index < edit.start; index++) out.push(lines[index]);
    out.push(...edit.added);
    index += edit.removed;
  }
  for (; index < lines.length; index++) out.push(lines[index]);
  return out;
}

/** The apply_patch form: 3 context lines around each edit, no anchors, no line numbers. */
function applyPatchText(lines: readonly string[], edits: readonly Edit[]): string {
  const out = ['*** Begin Patch', '*** Update File: big.ts'];
  for (const edit of edits) {
    out.push('@@');
    for (let k = edit.start - 3; k < edit.start; k++) out.push(` ${lines[k]}`);
    for (let k = 0; k < edit.removed; k++) out.push(`-${lines[edit.start + k]}`);
    for (const added of edit.added) out.push(`+${added}`);
    for (let k = edit.start + edit.removed; k < edit.start + edit.removed + 3; k++) out.push(` ${lines[k]}`);
  }
  out.push('*** End Patch');
  return out.join('\n');
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { median: sorted[Math.floor(sorted.length / 2)], mean, min: sorted[0] };
}

export default async function (): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-patch-'));
  try {
    const lines = generateFile();
    const edits = generateEdits(lines);
    const original = `${lines.join('\n')}\n`;
    const expected = `${applyEdits(lines, edits).join('\n')}\n`;
    const patchText = applyPatchText(lines, edits);

    // git: a repo with the original committed; the unified diff is git's own diff of the edit.
    const repo = join(base, 'git');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(repo, 'config', 'user.email', 'bench@example.invalid');
    git(repo, 'config', 'user.name', 'bench');
    writeFileSync(join(repo, 'big.ts'), original);
    git(repo, 'add', 'big.ts');
    git(repo, 'commit', '-q', '-m', 'original');
    writeFileSync(join(repo, 'big.ts'), expected);
    const unified = git(repo, 'diff', '--unified=3', 'big.ts');
    const diffPath = join(base, 'change.diff');
    writeFileSync(diffPath, unified);
    const gitHunks = (unified.match(/^@@ /gm) ?? []).length;

    const folder = join(base, 'toolhost');
    mkdirSync(folder);
    const workspace = createNodeWorkspace(folder);
    const locks = new PathLocks();

    const gitSamples: number[] = [];
    const toolhostSamples: number[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      writeFileSync(join(repo, 'big.ts'), original);
      let start = performance.now();
      git(repo, 'apply', diffPath);
      const gitTime = performance.now() - start;
      if (readFileSync(join(repo, 'big.ts'), 'utf8') !== expected) throw new Error('git apply produced an unexpected file');

      writeFileSync(join(folder, 'big.ts'), original);
      start = performance.now();
      const result = await applyPatch(workspace, patchText, { locks });
      const toolhostTime = performance.now() - start;
      if (!result.ok) throw new Error(`apply_patch failed: ${result.output.slice(0, 500)}`);
      if (readFileSync(join(folder, 'big.ts'), 'utf8') !== expected) throw new Error('apply_patch produced an unexpected file');

      if (round >= WARMUP) {
        gitSamples.push(gitTime);
        toolhostSamples.push(toolhostTime);
      }
    }

    const gitStats = stats(gitSamples);
    const ourStats = stats(toolhostSamples);
    const row = (name: string, s: ReturnType<typeof stats>) =>
      `| ${name.padEnd(36)} | ${s.median.toFixed(2).padStart(10)} | ${s.mean.toFixed(2).padStart(10)} | ${s.min.toFixed(2).padStart(10)} |`;
    console.log(
      `file: ${LINES} lines (${(original.length / 1024 / 1024).toFixed(2)} MB), patch: ${HUNKS} hunks (git diff: ${gitHunks} hunks), ${ROUNDS} rounds after ${WARMUP} warm-up`,
    );
    console.log('| variant                              | median ms  | mean ms    | min ms     |');
    console.log('|--------------------------------------|------------|------------|------------|');
    console.log(row('git apply (spawned, unified diff)', gitStats));
    console.log(row('toolhost applyPatch (in-process)', ourStats));
    console.log(`ratio toolhost / git apply (median): ${(ourStats.median / gitStats.median).toFixed(2)} (target < 1.5)`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
