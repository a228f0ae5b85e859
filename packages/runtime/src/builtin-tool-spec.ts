import type { ToolAnnotations, ToolImplementation, ToolRole } from '@toolhost/core';
import type { ShellGuidance, ToolProfile } from '@toolhost/profiles';
import type * as z from 'zod';
import type { CodeSearchEngine, ExecEngine, PatchEngine } from './tool-engines.js';

/** The engines a built-in tool is made from, each built once, on first use. */
export interface BuiltinEngines {
  exec(): ExecEngine;
  patch(): PatchEngine;
  codeSearch(): CodeSearchEngine;
  /** search_tools over the runtime's catalog. */
  searchTools(): ToolImplementation;
}

/** Everything toolhost knows of one built-in tool; every list of tools (profiles, definitions, adapters' sets) is read from these. */
export interface BuiltinToolSpec<
  Name extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  Data extends z.ZodObject = z.ZodObject,
  Implementation extends ToolImplementation = ToolImplementation,
> {
  readonly name: Name;
  /** What the tool does; adapters find the tools a native tool replaces by it. */
  readonly role: ToolRole;
  /** The arguments as the model sends them (the engine's schema). */
  readonly inputSchema: Input;
  /** What the result's `data` holds (the engine's schema); MCP's `outputSchema` is made from it. */
  readonly dataSchema: Data;
  readonly annotations: ToolAnnotations;
  /** The profiles that list the tool. */
  readonly profiles: readonly ToolProfile[];
  /** The description under a shell profile. */
  describe(guidance: ShellGuidance): string;
  /** The tool's implementation, taken from its engine. */
  create(engines: BuiltinEngines): Implementation;
}

/** Declares a built-in tool, keeping its literal name and schema types. */
export function defineBuiltinTool<
  Name extends string,
  Input extends z.ZodObject,
  Data extends z.ZodObject,
  Implementation extends ToolImplementation,
>(spec: BuiltinToolSpec<Name, Input, Data, Implementation>): BuiltinToolSpec<Name, Input, Data, Implementation> {
  return spec;
}
