// Timing helpers the benches share.
import { performance } from 'node:perf_hooks';

/** The middle sample (the upper one of an even count). */
export function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

/** Each round's milliseconds, after `warmup` untimed runs. */
export async function timed(rounds: number, warmup: number, task: () => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await task();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  return times;
}
