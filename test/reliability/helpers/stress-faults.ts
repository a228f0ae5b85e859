import type { ToolHost } from 'toolhost';
import { marked, outputTokens } from './process-faults.js';
import { settledHeapUsed } from './proc-scan.js';

/** What printing a large amount of output did to the host. */
export interface FloodSummary {
  bytes: number;
  calls: number;
  exitCode: number | undefined;
  maxOutputTokens: number;
  heapGrowthBytes: number;
  rssPeakBytes: number;
  problems: string[];
}

/** Runs a command printing `bytes` bytes (no newlines), polling until it exits; checks budget and memory. */
export async function floodOutput(host: ToolHost, marker: string, bytes: number): Promise<FloodSummary> {
  const heapBefore = settledHeapUsed();
  let rssPeak = process.memoryUsage().rss;
  const problems: string[] = [];
  let maxTokens = 0;
  let calls = 1;
  let result = await host.call('exec_command', {
    cmd: marked(marker, `head -c ${bytes} /dev/zero | tr '\\0' x`),
    yield_time_ms: 30_000,
    max_output_tokens: 2_000,
  });
  const check = () => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (!result.ok) problems.push(`call ${calls}: ${result.output.slice(0, 200)}`);
    const tokens = outputTokens(result);
    maxTokens = Math.max(maxTokens, tokens);
    if (tokens > 2_000) problems.push(`call ${calls}: ${tokens} output tokens over the 2000 budget`);
  };
  check();
  while (result.ok && result.data?.exit_code === undefined && calls < 1_000) {
    result = await host.call('write_stdin', { session_id: result.data?.session_id, chars: '', yield_time_ms: 30_000, max_output_tokens: 2_000 });
    calls++;
    check();
  }
  const heapGrowth = settledHeapUsed() - heapBefore;
  return { bytes, calls, exitCode: result.data?.exit_code as number | undefined, maxOutputTokens: maxTokens, heapGrowthBytes: heapGrowth, rssPeakBytes: rssPeak, problems };
}
