import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ToolResult } from '@toolhost/core';
import { describeResult, resultShapeProblems } from './result-shape.js';
import type { Sandbox } from './sandbox.js';

/** The operations every hostile path goes through. */
export const HOSTILE_OPERATIONS = ['add', 'update', 'delete', 'move_source', 'move_destination', 'exec_workdir', 'code_search'] as const;
/** One operation of {@link HOSTILE_OPERATIONS}. */
export type HostileOperation = (typeof HOSTILE_OPERATIONS)[number];

/** What a hostile path must lead to. */
export type HostileExpectation = 'reject' | 'inside' | 'unwritable';

/** A link created in the workspace before an operation. */
export interface HostileSetup {
  kind: 'symlink' | 'hardlink';
  path: string;
  target: string;
}

/** One corpus entry as stored in `__fixtures__/hostile-paths.json`. */
export interface HostileCase {
  id: string;
  category: string;
  path: string;
  expect: HostileExpectation;
  resolved?: string;
  ops?: HostileOperation[];
  setup?: HostileSetup[];
  note?: string;
}

/** Anything that runs a tool call the way `host.call` does. */
export type CallTool = (name: string, args: unknown) => Promise<ToolResult>;

/** Runs one hostile operation on `path` through some surface (the tools, or a provider-native edit path). */
export type InvokeOperation = (operation: HostileOperation, path: string) => Promise<ToolResult>;

/** Runs each operation as the tool call {@link operationCall} builds. */
export function invokeThroughTools(call: CallTool): InvokeOperation {
  return (operation, path) => {
    const { name, args } = operationCall(operation, path);
    return call(name, args);
  };
}

/** The outcome of one operation of one case. */
export interface OperationOutcome {
  operation: HostileOperation;
  result?: ToolResult;
  /** Empty when the operation behaved as the corpus expects. */
  problems: string[];
  /** True when the sentinel tree changed (it is restored afterwards). */
  outsideChanged: boolean;
  /** Bytes outside the workspace that this operation changed. */
  bytesOutside: number;
}

const FIXTURE = new URL('../__fixtures__/hostile-paths.json', import.meta.url);

/** Loads the corpus with JSON.parse (never through a bundler's JSON import). */
export function loadHostileCases(): HostileCase[] {
  return (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cases: HostileCase[] }).cases;
}

/** Expands `${WORKSPACE}`-style templates and `${repeat:TEXT:N}` against a sandbox. */
export function expandTemplate(text: string, sandbox: Sandbox): string {
  const values: Record<string, string> = {
    WORKSPACE: sandbox.workspace,
    OUTSIDE: sandbox.outside,
    PARENT: sandbox.parent,
    ROOT: sandbox.root,
    ROOT_FROM_SLASH: sandbox.root.replace(/^\/+/, ''),
    HOME: sandbox.home,
  };
  return text
    .replace(/\$\{repeat:([^}]*):(\d+)\}/g, (_match, unit: string, count: string) => unit.repeat(Number(count)))
    .replace(/\$\{([A-Z_]+)\}/g, (match, name: string) => values[name] ?? match);
}

const PROBE = 'reliability-probe.txt';
const UPDATE_SEED = 'hello\nfrom the reliability suite\n';

function patch(body: string): string {
  return `*** Begin Patch\n${body}*** End Patch\n`;
}

/** The tool call of one operation on `path`. */
export function operationCall(operation: HostileOperation, path: string): { name: string; args: Record<string, unknown> } {
  switch (operation) {
    case 'add':
      return { name: 'apply_patch', args: { input: patch(`*** Add File: ${path}\n+created by reliability\n`) } };
    case 'update':
      return { name: 'apply_patch', args: { input: patch(`*** Update File: ${path}\n@@\n-hello\n+changed\n`) } };
    case 'delete':
      return { name: 'apply_patch', args: { input: patch(`*** Delete File: ${path}\n`) } };
    case 'move_source':
      return {
        name: 'apply_patch',
        args: { input: patch(`*** Update File: ${path}\n*** Move to: moved-by-reliability.txt\n@@\n-hello\n+moved\n`) },
      };
    case 'move_destination':
      return { name: 'apply_patch', args: { input: patch(`*** Update File: inside.txt\n*** Move to: ${path}\n@@\n-hello\n+moved\n`) } };
    case 'exec_workdir':
      return { name: 'exec_command', args: { cmd: `echo reliability > ${PROBE}; pwd -P`, workdir: path, yield_time_ms: 15_000 } };
    case 'code_search':
      return { name: 'code_search', args: { query: 'hello', path, max_results: 5 } };
  }
}

function applySetup(sandbox: Sandbox, setup: readonly HostileSetup[] | undefined): void {
  for (const entry of setup ?? []) {
    const path = join(sandbox.workspace, entry.path);
    mkdirSync(dirname(path), { recursive: true });
    const target = expandTemplate(entry.target, sandbox);
    if (entry.kind === 'symlink') symlinkSync(target, path);
    else linkSync(target, path);
  }
}

function tryQuietly(action: () => void): void {
  try {
    action();
  } catch {
    // the file system refuses (e.g. a name over NAME_MAX): the operation is then expected to fail cleanly
  }
}

/** Creates what an operation on an inside path needs: the file to edit, or the folder to run or search in. */
function prepareInside(sandbox: Sandbox, operation: HostileOperation, resolved: string): void {
  const full = join(sandbox.workspace, resolved);
  if (operation === 'update' || operation === 'delete' || operation === 'move_source') {
    if (!existsSync(full))
      tryQuietly(() => {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, UPDATE_SEED);
      });
  }
  if ((operation === 'exec_workdir' || operation === 'code_search') && !existsSync(full))
    tryQuietly(() => mkdirSync(full, { recursive: true }));
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Checks that an inside operation landed where the corpus says. */
function insideEffectProblems(sandbox: Sandbox, operation: HostileOperation, resolved: string, result: ToolResult): string[] {
  if (!result.ok) return [`expected success inside the workspace, got ${describeResult(result)}`];
  const full = join(sandbox.workspace, resolved);
  switch (operation) {
    case 'add':
      return readText(full) === 'created by reliability\n' ? [] : [`${resolved} was not created inside the workspace`];
    case 'update':
      return readText(full)?.startsWith('changed\n') ? [] : [`${resolved} was not updated inside the workspace`];
    case 'delete':
      return exists(full) ? [`${resolved} still exists after Delete File`] : [];
    case 'move_source':
      return readText(join(sandbox.workspace, 'moved-by-reliability.txt'))?.startsWith('moved\n') && !exists(full)
        ? []
        : [`${resolved} was not moved inside the workspace`];
    case 'move_destination':
      return readText(full)?.startsWith('moved\n') ? [] : [`inside.txt was not moved to ${resolved}`];
    case 'exec_workdir':
      return readText(join(full, PROBE)) === 'reliability\n' ? [] : [`the command did not run in ${resolved || 'the workspace root'}`];
    case 'code_search':
      return [];
  }
}

/** Runs one operation of one case against a fresh workspace and checks the result and the sentinel tree. */
export async function runHostileOperation(
  invoke: InvokeOperation,
  sandbox: Sandbox,
  entry: HostileCase,
  operation: HostileOperation,
  sentinel: string,
): Promise<OperationOutcome> {
  sandbox.resetWorkspace();
  applySetup(sandbox, entry.setup);
  const path = expandTemplate(entry.path, sandbox);
  const resolved = entry.resolved === undefined ? undefined : expandTemplate(entry.resolved, sandbox);
  if (entry.expect === 'inside' && resolved !== undefined) prepareInside(sandbox, operation, resolved);
  const problems: string[] = [];
  let result: ToolResult | undefined;
  try {
    result = await invoke(operation, path);
  } catch (error) {
    problems.push(`${operation} threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (result) {
    problems.push(...resultShapeProblems(result));
    if (entry.expect === 'reject') {
      if (result.ok || result.error?.code !== 'outside_workspace')
        problems.push(`expected outside_workspace, got ${describeResult(result)}`);
    } else if (entry.expect === 'unwritable') {
      if (result.ok) problems.push(`expected a clean failure, got success: ${describeResult(result)}`);
      else if (result.error?.code === 'outside_workspace' || result.error?.code === 'internal_error') {
        problems.push(`expected a clean failure naming the problem, got ${describeResult(result)}`);
      }
    } else if (resolved !== undefined) problems.push(...insideEffectProblems(sandbox, operation, resolved, result));
  }
  const outsideChanged = sandbox.checksumOutside() !== sentinel;
  let bytesOutside = 0;
  if (outsideChanged) {
    bytesOutside = sandbox.bytesChangedOutside();
    problems.push(`bytes outside the workspace changed (${bytesOutside})`);
    sandbox.restoreOutside();
  }
  return { operation, result, problems, outsideChanged, bytesOutside };
}

/**
 * Runs every applicable operation of one case: the case's own list (or all), limited to `supported` (the operations a
 * surface has); a tool-call function runs them as tool calls.
 */
export async function runHostileCase(
  target: CallTool | { invoke: InvokeOperation; supported: readonly HostileOperation[] },
  sandbox: Sandbox,
  entry: HostileCase,
  sentinel: string,
): Promise<OperationOutcome[]> {
  const { invoke, supported } =
    typeof target === 'function' ? { invoke: invokeThroughTools(target), supported: HOSTILE_OPERATIONS } : target;
  const outcomes: OperationOutcome[] = [];
  for (const operation of entry.ops ?? HOSTILE_OPERATIONS) {
    if (supported.includes(operation)) outcomes.push(await runHostileOperation(invoke, sandbox, entry, operation, sentinel));
  }
  return outcomes;
}
