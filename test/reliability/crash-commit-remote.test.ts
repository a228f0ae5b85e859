import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, needsEngine } from '../environments/engines.js';
import {
  createCrashFolder,
  killCrashChildren,
  removeCrashFolder,
  runRemoteCrashCommits,
  startCrashContainer,
} from './helpers/crash-commit-remote.js';

// A host on a Docker container or an SSH host applying one edit to 24 files is killed with SIGKILL at random moments;
// the next host to open the same remote workspace must find every file wholly before or wholly after the edit, with
// nothing left of the commit in the workspace or in the journal folder on the remote. TOOLHOST_CRASH_REMOTE_KILLS
// raises the count (npm run stress kills more on each engine).
const kills = Number(process.env.TOOLHOST_CRASH_REMOTE_KILLS ?? 4);
const remotes = ENGINES.filter((engine) => engine.name === 'docker' || engine.name === 'ssh');
const availability = await Promise.all(remotes.map(async (engine) => ({ engine, reason: await engine.unavailable() })));

for (const { engine, reason } of availability) {
  describe(`a multi-file edit on ${engine.name} killed mid-commit`, needsEngine(engine.name, reason), () => {
    let root: string;
    let container: { id: string; remove: () => Promise<void> } | undefined;
    beforeAll(async () => {
      root = createCrashFolder();
      if (engine.name === 'docker') container = await startCrashContainer(root);
    }, 60_000);
    afterAll(async () => {
      killCrashChildren();
      await container?.remove();
      if (root) removeCrashFolder(root);
    }, 60_000);

    it(`is never left half applied: apply_patch, ${kills} kills`, { timeout: Math.max(1, kills / 4) * 90_000 }, async () => {
      const summary = await runRemoteCrashCommits({ engine: engine.name as 'docker' | 'ssh', root, container: container?.id }, { kills });
      expect(summary.problems).toEqual([]);
      expect(summary.mixed).toBe(0);
      expect(summary.leftovers).toBe(0);
      expect(summary.kills).toBe(kills);
    });
  });
}
