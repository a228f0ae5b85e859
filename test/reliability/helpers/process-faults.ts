import { randomUUID } from 'node:crypto';
import { approximateTokenizer, type ToolResult } from '@toolhost/core';
import type { ToolHost } from 'toolhost';
import { findMarkedProcessesOf } from '../../helpers/proc-scan.js';
import { describeResult, resultShapeProblems } from './result-shape.js';

/** A unique marker; commands export it so every process of their tree carries it in /proc/<pid>/environ. */
export function newMarker(label: string): string {
  return `toolhost-rel-${label}-${randomUUID()}`;
}

/** Prefixes a command so that its shell (cmdline) and every descendant (environ) carry the marker. */
export function marked(marker: string, command: string): string {
  return `export TOOLHOST_RELIABILITY_MARK=${marker}; ${command}`;
}

/** Runs one exec_command and insists that the process is still running afterwards. */
export async function startRunning(
  host: ToolHost,
  cmd: string,
  extra: Record<string, unknown> = {},
): Promise<{ sessionId: number; result: ToolResult }> {
  const result = await host.call('exec_command', { cmd, yield_time_ms: 500, ...extra });
  const problems = resultShapeProblems(result);
  if (problems.length || !result.ok) throw new Error(`exec_command failed: ${problems.join('; ')} ${describeResult(result)}`);
  if (result.data?.exit_code !== undefined) throw new Error(`expected a running session, got ${describeResult(result)}`);
  return { sessionId: Number(result.data?.session_id), result };
}

/** Tokens of a result's output by the suite's tokenizer. */
export function outputTokens(result: ToolResult): number {
  return approximateTokenizer.count(result.output);
}

/** Processes that carry any marker of the list. */
export function survivors(markers: readonly string[]): string[] {
  return [...findMarkedProcessesOf(markers).values()].flat().map((process) => `${process.pid} ${process.cmdline.slice(0, 120)}`);
}

/** How many of the markers still have a live process. */
export function liveMarkers(markers: readonly string[]): string[] {
  return [...findMarkedProcessesOf(markers)].filter(([, processes]) => processes.length > 0).map(([marker]) => marker);
}
