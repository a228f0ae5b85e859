import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import type { SkipReason } from './skip-reason.js';

/** The nearest reason given by the test or a suite around it. */
function reasonOf(test: TestCase): SkipReason | undefined {
  let task: TestCase | TestSuite | TestModule = test;
  while (task.type !== 'module') {
    const reason = task.meta().skipReason;
    if (reason?.why) return reason;
    task = task.parent;
  }
  return undefined;
}

/**
 * One line for the end of a run: how many tests were skipped, grouped by the command that would run them, each with
 * its reasons and counts; tests with no reason in their meta (left out by a `-t` filter, a `.skip`) are counted together.
 */
export function skippedTestsLine(modules: ReadonlyArray<TestModule>): string {
  const groups = new Map<string, Map<string, number>>();
  let total = 0;
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      total++;
      const reason = reasonOf(test) ?? { why: 'filtered out, or skipped with no reason given', enable: undefined };
      const enable = reason.enable ?? '';
      const whys = groups.get(enable) ?? new Map<string, number>();
      const why = reason.why.replace(/\s+/g, ' ').trim();
      whys.set(why, (whys.get(why) ?? 0) + 1);
      groups.set(enable, whys);
    }
  }
  if (total === 0) return 'skipped: none';
  const parts = [...groups].map(([enable, whys]) => {
    const listed = [...whys].map(([why, count]) => `${count} (${why})`).join(', ');
    const count = [...whys.values()].reduce((sum, each) => sum + each, 0);
    return enable ? `${listed}, to run ${count === 1 ? 'it' : 'them'}: ${enable}` : listed;
  });
  return `skipped ${total}: ${parts.join('; ')}`;
}

/**
 * Ends the run's output with {@link skippedTestsLine}. Vitest runs the reporters' last hooks side by side, so the line is
 * written as the process exits, after every other reporter's last line (the JSON reporter's "report written", for one);
 * in watch mode, at the end of each run.
 */
export default class SkippedTestsReporter implements Reporter {
  private vitest?: Vitest;
  private line?: string;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const first = this.line === undefined;
    this.line = skippedTestsLine(modules);
    if (this.vitest?.config.watch) console.log(this.line);
    else if (first) process.once('exit', () => console.log(this.line));
  }
}
