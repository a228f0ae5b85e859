// apply_patch on large files: 24 files of 256 KiB with one line changed in each (one patch), and one 20 MiB file with
// one line changed, in-process and warm, against `git apply` of the same change as a unified diff in the same run.
// Both read and write the files on disk; toolhost's multi-file commit includes its crash journal, timed with each
// durability: `disk` (the default: journal, old files and new files flushed) and `process` (no flush, as git apply).
// Run: npm run bench -- patch-large
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createNodeWorkspace, type WorkspaceDurability } from '@toolhost/core/node';
import { applyPatch, PathLocks } from '@toolhost/patch';
import { applyPatchText, changed, checkAll, codeFile, git, writeAll } from './large-file-changes.js';
import { median } from './timing.js';

const WARMUP = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

interface Scenario {
  name: string;
  /** File name to content before the change. */
  files: Map<string, string>;
  /** The line index changed in every file. */
  line: number;
}

async function run(base: string, scenario: Scenario): Promise<void> {
  const expected = new Map([...scenario.files].map(([name, text]) => [name, Buffer.from(changed(text, scenario.line))]));
  // Resets and checks work on bytes made once, so this process makes no garbage of its own between timed calls.
  const original = new Map([...scenario.files].map(([name, text]) => [name, Buffer.from(text)]));
  const scratch = Buffer.alloc(Math.max(...[...expected.values()].map((bytes) => bytes.length)) + 1);
  const repo = join(base, `${scenario.name}-git`);
  mkdirSync(repo);
  git(repo, 'init', '-q');
  git(repo, 'config', 'user.email', 'bench@example.invalid');
  git(repo, 'config', 'user.name', 'bench');
  writeAll(repo, original);
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'original');
  writeAll(repo, expected);
  const diffPath = join(base, `${scenario.name}.diff`);
  writeFileSync(diffPath, git(repo, 'diff', '--unified=3'));
  const patchText = applyPatchText(scenario.files, scenario.line);

  const durabilities: WorkspaceDurability[] = ['disk', 'process'];
  const sides = durabilities.map((durability) => {
    const folder = join(base, `${scenario.name}-toolhost-${durability}`);
    mkdirSync(folder);
    const workspace = createNodeWorkspace(folder, { stateDirectory: join(base, 'state'), durability });
    return { folder, workspace, samples: [] as number[] };
  });
  const locks = new PathLocks();
  const check = (where: string, what: string) => checkAll(where, expected, what, scratch);
  const gitSamples: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    writeAll(repo, original);
    let start = performance.now();
    git(repo, 'apply', diffPath);
    const gitTime = performance.now() - start;
    check(repo, 'git apply');
    if (round >= WARMUP) gitSamples.push(gitTime);
    for (const side of sides) {
      writeAll(side.folder, original);
      start = performance.now();
      const result = await applyPatch(side.workspace, patchText, { locks });
      const ourTime = performance.now() - start;
      if (!result.ok) throw new Error(`apply_patch failed: ${result.output.slice(0, 500)}`);
      check(side.folder, 'apply_patch');
      if (round >= WARMUP) side.samples.push(ourTime);
    }
  }
  const bytes = [...scenario.files.values()].reduce((sum, text) => sum + text.length, 0);
  const theirs = median(gitSamples);
  const columns = sides.map((side) => {
    const ours = median(side.samples);
    return `${ours.toFixed(1).padStart(side === sides[0] ? 9 : 10)} | ${(ours / theirs).toFixed(2).padStart(5)}`;
  });
  console.log(
    `| ${scenario.name.padEnd(28)} | ${(bytes / 2 ** 20).toFixed(1).padStart(5)} MiB | ${theirs.toFixed(1).padStart(9)} | ${columns.join(' | ')} |`,
  );
}

export default async function (): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-patch-large-'));
  try {
    const many = new Map<string, string>();
    for (let index = 0; index < 24; index++) many.set(`file${String(index).padStart(2, '0')}.ts`, codeFile(`f${index}`, 256 * 1024));
    const big = new Map([['big.ts', codeFile('big', 20 * 2 ** 20)]]);
    console.log(`median of ${ROUNDS} rounds after ${WARMUP} warm-up; git apply is spawned, apply_patch is in-process`);
    console.log('| change                       | size      | git ms    | disk ms   | ratio | process ms | ratio |');
    console.log('|------------------------------|-----------|-----------|-----------|-------|------------|-------|');
    await run(base, { name: '24 x 256 KiB, 1 line each', files: many, line: 1500 });
    await run(base, { name: '1 x 20 MiB, 1 line', files: big, line: 120_000 });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
