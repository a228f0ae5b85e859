import { createReadStream } from 'node:fs';
import type { ToolHost } from 'toolhost';
import { marked, outputTokens } from './process-faults.js';
import { settledHeapUsed } from '../../helpers/proc-scan.js';

/** What printing a large amount of output did to the host. */
export interface FloodSummary {
  bytes: number;
  calls: number;
  exitCode: number | undefined;
  maxOutputTokens: number;
  heapGrowthBytes: number;
  rssPeakBytes: number;
  /** Bytes the session's spool file holds: every byte printed, or the output was lost. */
  spooledBytes: number;
  problems: string[];
}

/** How many bytes of the file are `x`, and how many bytes it has. */
async function countX(path: string): Promise<{ total: number; x: number }> {
  let total = 0;
  let x = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    total += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x78) x++;
  }
  return { total, x };
}

/**
 * Runs a command printing `bytes` bytes (no newlines), through pipes or a PTY, polling until it exits; checks the
 * budget, memory, and that the spool file holds every byte.
 */
export async function floodOutput(host: ToolHost, marker: string, bytes: number, options: { tty?: boolean } = {}): Promise<FloodSummary> {
  const heapBefore = settledHeapUsed();
  let rssPeak = process.memoryUsage().rss;
  const problems: string[] = [];
  let maxTokens = 0;
  let calls = 1;
  let result = await host.call('exec_command', {
    cmd: marked(marker, `head -c ${bytes} /dev/zero | tr '\\0' x`),
    yield_time_ms: 30_000,
    max_output_tokens: 2_000,
    tty: options.tty ?? false,
  });
  let spoolPath: string | undefined;
  const check = () => {
    if (typeof result.data?.spool_path === 'string') spoolPath = result.data.spool_path;
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (!result.ok) problems.push(`call ${calls}: ${result.output.slice(0, 200)}`);
    const tokens = outputTokens(result);
    maxTokens = Math.max(maxTokens, tokens);
    if (tokens > 2_000) problems.push(`call ${calls}: ${tokens} output tokens over the 2000 budget`);
  };
  check();
  while (result.ok && result.data?.exit_code === undefined && calls < 1_000) {
    result = await host.call('write_stdin', {
      session_id: result.data?.session_id,
      chars: '',
      yield_time_ms: 30_000,
      max_output_tokens: 2_000,
    });
    calls++;
    check();
  }
  const heapGrowth = settledHeapUsed() - heapBefore;
  let spooledBytes = 0;
  if (spoolPath === undefined) problems.push('no result named a spool file');
  else {
    const counted = await countX(spoolPath);
    spooledBytes = counted.total;
    if (counted.x !== bytes || counted.total !== bytes)
      problems.push(`the spool holds ${counted.x} of the ${bytes} bytes printed (${counted.total} bytes in all): output was lost`);
  }
  return {
    bytes,
    calls,
    exitCode: result.data?.exit_code as number | undefined,
    maxOutputTokens: maxTokens,
    heapGrowthBytes: heapGrowth,
    rssPeakBytes: rssPeak,
    spooledBytes,
    problems,
  };
}
