import type { ToolResult } from '@toolhost/core';
import type { CallTool } from './hostile-corpus.js';
import { resultShapeProblems } from './result-shape.js';

/** Latency percentiles in milliseconds. */
export interface LatencyStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** What a load run saw. */
export interface LoadSummary {
  calls: number;
  concurrency: number;
  wallMs: number;
  overall: LatencyStats;
  byTool: Record<string, LatencyStats>;
  /** Result codes per tool (`ok` or the error code). */
  codes: Record<string, Record<string, number>>;
  /** Malformed results or throws, with the call that caused them. */
  problems: string[];
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function stats(samples: number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
}

const QUERIES = ['github pull request', 'logs', 'database query', 'screenshot', 'docker'];

/** The i-th call of the mix: exec, apply_patch, search_tools and code_search in turn. */
export function mixedCall(index: number): [string, Record<string, unknown>] {
  switch (index % 4) {
    case 0:
      return ['exec_command', { cmd: `echo load-${index}`, yield_time_ms: 30_000 }];
    case 1:
      return ['apply_patch', { input: `*** Begin Patch\n*** Add File: load/${index}.txt\n+hello ${index}\n*** End Patch\n` }];
    case 2:
      return ['search_tools', { query: QUERIES[index % QUERIES.length]!, limit: 3 }];
    default:
      return ['code_search', { query: index % 40 === 3 ? 'hello' : 'return', max_results: 10 }];
  }
}

/** Runs `calls` mixed calls with `concurrency` in flight; every result must be well-formed and every call must settle. */
export async function runLoad(
  call: CallTool,
  calls: number,
  concurrency: number,
  pick: (index: number) => [string, Record<string, unknown>] = mixedCall,
): Promise<LoadSummary> {
  const latencies: Record<string, number[]> = {};
  const codes: Record<string, Record<string, number>> = {};
  const problems: string[] = [];
  const all: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < calls) {
      const index = next++;
      const [name, args] = pick(index);
      const begin = performance.now();
      let result: ToolResult | undefined;
      try {
        result = await call(name, args);
      } catch (error) {
        problems.push(`#${index} ${name} threw ${error instanceof Error ? error.message : String(error)}`);
      }
      const elapsed = performance.now() - begin;
      (latencies[name] ??= []).push(elapsed);
      all.push(elapsed);
      if (!result) continue;
      const shape = resultShapeProblems(result);
      if (shape.length) problems.push(`#${index} ${name}: ${shape.join('; ')}`);
      const key = result.ok ? 'ok' : (result.error?.code ?? 'missing');
      const perTool = (codes[name] ??= {});
      perTool[key] = (perTool[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const byTool: Record<string, LatencyStats> = {};
  for (const [name, samples] of Object.entries(latencies)) byTool[name] = stats(samples);
  return { calls, concurrency, wallMs: performance.now() - started, overall: stats(all), byTool, codes, problems };
}

/** A printable table of a load summary. */
export function formatLoad(summary: LoadSummary): string {
  const row = (label: string, value: LatencyStats) =>
    `${label.padEnd(14)} ${String(value.count).padStart(6)} ${value.p50.toFixed(1).padStart(9)} ${value.p99.toFixed(1).padStart(9)} ${value.max.toFixed(1).padStart(9)}`;
  return [
    `load: ${summary.calls} calls, ${summary.concurrency} in flight, ${(summary.wallMs / 1000).toFixed(2)} s wall, ${(summary.calls / (summary.wallMs / 1000)).toFixed(0)} calls/s`,
    `${'tool'.padEnd(14)} ${'calls'.padStart(6)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'max ms'.padStart(9)}`,
    ...Object.entries(summary.byTool).map(([name, value]) => row(name, value)),
    row('all', summary.overall),
    `results: ${JSON.stringify(summary.codes)}`,
  ].join('\n');
}
