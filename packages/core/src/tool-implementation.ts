import type * as z from 'zod';
import type { Spool } from './spool.js';
import type { Tokenizer } from './tokenizer.js';
import type { FreeformFormat, ToolResult } from './tool-result.js';
import type { ToolVocabulary } from './tool-vocabulary.js';
import type { Workspace } from './workspace.js';

/** The shell syntax the model is asked to use. */
export type ShellKind = 'unix_like' | 'powershell';

/** What a tool gets for one call. */
export interface ToolContext {
  readonly workspace: Workspace;
  readonly tokenizer: Tokenizer;
  readonly spool: Spool;
  /** The validated `max_output_tokens` of this call. */
  readonly maxOutputTokens: number;
  readonly shell: ShellKind;
  /** Aborted when the host closes or the caller cancels this call (a command then kills its process tree). */
  readonly signal: AbortSignal;
  /** The names of the tools the model was given, for texts that point at another tool (default: toolhost's own). */
  readonly vocabulary?: ToolVocabulary;
}

/** A tool's behaviour; descriptions are added by the profile that lists it. */
export interface ToolImplementation {
  readonly name: string;
  /** Full input schema, `max_output_tokens` included; strict (unknown fields rejected). */
  readonly schema: z.ZodObject;
  readonly freeform?: FreeformFormat;
  /** Maps a freeform call's raw text to arguments. */
  fromFreeform?(text: string): Record<string, unknown>;
  /** Rewrites accepted aliases (e.g. a digit-string session id) before validation. */
  normalize?(args: Record<string, unknown>): Record<string, unknown>;
  /** Runs a validated call; must not throw for model mistakes. */
  execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
  /** Releases resources (processes, caches) when the host closes. */
  close?(): Promise<void>;
}
