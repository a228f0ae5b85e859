import { gatherCalls } from './gather-calls.js';
import type { ScriptOutcome, ScriptRunner } from './script-runner.js';
import type { ScriptBatchRunner, ScriptStep } from './script-steps.js';

/** The most steps one batch holds. */
const MAX_BATCH_STEPS = 64;
/** The most input bytes one batch carries (its program holds them in base64). */
const MAX_BATCH_INPUT_BYTES = 16 * 1024 * 1024;

/** The most batches one turn's requests are spread over: two side by side use a second core without crowding one. */
const MAX_BATCH_LANES = 2;
/** The fewest steps a lane gets before another lane is opened. */
const MIN_LANE_STEPS = 4;

/** Cuts the requests into batches within the limits, in the order they came, each spread over a few lanes. */
function batches(requests: readonly ScriptStep[]): ScriptStep[][] {
  const groups: ScriptStep[][] = [];
  let group: ScriptStep[] = [];
  let bytes = 0;
  for (const request of requests) {
    const size = request.input?.byteLength ?? 0;
    if (group.length > 0 && (group.length >= MAX_BATCH_STEPS || bytes + size > MAX_BATCH_INPUT_BYTES)) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(request);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups.flatMap((whole) => {
    const lanes = Math.min(MAX_BATCH_LANES, Math.ceil(whole.length / MIN_LANE_STEPS));
    const size = Math.ceil(whole.length / lanes);
    return Array.from({ length: lanes }, (_, lane) => whole.slice(lane * size, (lane + 1) * size)).filter((lane) => lane.length > 0);
  });
}

/**
 * A runner that gathers the helper scripts asked for in the same turn of the event loop (the calls a caller makes
 * together, such as the reads of a patch's files) and runs them as one batch: one round trip in place of one each.
 * A script asked for alone runs as before.
 */
export function coalescingScriptRunner(run: ScriptRunner, runBatch: ScriptBatchRunner): ScriptRunner {
  const runOne = (step: ScriptStep) => run(step.script, step.args, step.input);
  const gathered = gatherCalls<ScriptStep, ScriptOutcome>(
    async (steps) =>
      batches(steps).flatMap((group) => {
        // Each batch settles its own steps: a batch that fails fails its steps alone.
        const outcomes = group.length === 1 ? runOne(group[0]!).then((outcome) => [outcome]) : runBatch(group);
        return group.map((_, index) => outcomes.then((all) => all[index]!));
      }),
    runOne,
  );
  return (script, args, input) => gathered({ script, args, ...(input === undefined ? {} : { input }) });
}
