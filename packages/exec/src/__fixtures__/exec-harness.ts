import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gptTokenizer, type ShellKind, type Spool, type Tokenizer, type ToolContext, type ToolResult } from '@toolhost/core';
import { createFileSpool, createNodeWorkspace } from '@toolhost/core/node';
import { createExecTools, type ExecTools, type ExecToolsOptions } from '../exec-tools.js';

/** A real workspace folder, a file spool and exec tools, for tests. */
export interface ExecHarness {
  root: string;
  spoolDir: string;
  tools: ExecTools;
  /** Calls exec_command with schema defaults applied. */
  exec(args: Record<string, unknown>, context?: Partial<HarnessContext>): Promise<ToolResult>;
  /** Calls write_stdin with schema defaults applied. */
  write(args: Record<string, unknown>, context?: Partial<HarnessContext>): Promise<ToolResult>;
  dispose(): Promise<void>;
}

/** Per-call context settings. */
export interface HarnessContext {
  maxOutputTokens: number;
  tokenizer: Tokenizer;
  shell: ShellKind;
}

/** Creates a harness; `dispose()` closes the tools and removes the folders. */
export function createExecHarness(options: ExecToolsOptions & { wrapSpool?: (spool: Spool) => Spool } = {}): ExecHarness {
  const root = mkdtempSync(join(tmpdir(), 'toolhost-exec-ws-'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'toolhost-exec-spool-'));
  const workspace = createNodeWorkspace(root);
  const fileSpool = createFileSpool(spoolDir);
  const spool = options.wrapSpool ? options.wrapSpool(fileSpool) : fileSpool;
  const abort = new AbortController();
  // Like the host's close signal, many concurrent calls listen to it.
  setMaxListeners(0, abort.signal);
  const tools = createExecTools(options);
  const context = (overrides: Partial<HarnessContext> = {}): ToolContext => ({
    workspace,
    spool,
    tokenizer: overrides.tokenizer ?? gptTokenizer,
    maxOutputTokens: overrides.maxOutputTokens ?? 10_000,
    shell: overrides.shell ?? 'unix_like',
    signal: abort.signal,
  });
  return {
    root,
    spoolDir,
    tools,
    exec: (args, overrides) => tools.execCommand.execute(tools.execCommand.schema.parse(args), context(overrides)),
    write: (args, overrides) => {
      const normalized = tools.writeStdin.normalize ? tools.writeStdin.normalize(args) : args;
      return tools.writeStdin.execute(tools.writeStdin.schema.parse(normalized), context(overrides));
    },
    async dispose() {
      abort.abort();
      await tools.close();
      await fileSpool.dispose();
      rmSync(root, { recursive: true, force: true });
      rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}

/** The text after the `Output:` line. */
export function outputOf(result: ToolResult): string {
  const marker = '\nOutput:\n';
  const index = result.output.indexOf(marker);
  return index < 0 ? '' : result.output.slice(index + marker.length);
}
