import { describe, expect, it } from 'vitest';
import { runCrashCommits } from './helpers/crash-commit.js';

// A process applying one edit to 24 files is killed with SIGKILL at random moments; the next host to open the folder
// must find every file wholly before or wholly after the edit (npm run stress kills 400 times on each path).
describe('a multi-file edit killed mid-commit', () => {
  it('is never left half applied: apply_patch, 12 kills', { timeout: 600_000 }, async () => {
    const summary = await runCrashCommits({ kills: 12, surface: 'apply_patch', ahead: 3 });
    expect(summary.problems).toEqual([]);
    expect(summary.mixed).toBe(0);
    expect(summary.leftovers).toBe(0);
    expect(summary.kills).toBe(12);
    // Kills land inside commits, not only before or after them.
    expect(summary.completed + summary.rolledBack).toBeGreaterThan(0);
  });

  it('is never left half applied without flushes (durability process): apply_patch, 6 kills', { timeout: 600_000 }, async () => {
    const summary = await runCrashCommits({ kills: 6, surface: 'apply_patch', ahead: 3, durability: 'process' });
    expect(summary.problems).toEqual([]);
    expect(summary.mixed).toBe(0);
    expect(summary.leftovers).toBe(0);
    expect(summary.kills).toBe(6);
  });

  it('is never left half applied: the native edit path (host.edit), 4 kills', { timeout: 600_000 }, async () => {
    const summary = await runCrashCommits({ kills: 4, surface: 'edit', ahead: 3 });
    expect(summary.problems).toEqual([]);
    expect(summary.mixed).toBe(0);
    expect(summary.leftovers).toBe(0);
    expect(summary.kills).toBe(4);
  });
});
