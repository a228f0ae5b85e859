import {
  ToolHostError,
  toJsonSchema,
  type ToolContext,
  type ToolDefinition,
  type ToolImplementation,
  type ToolResult,
  type Workspace,
} from '@toolhost/core';
import type { FileOperation } from '@toolhost/patch';
import { PROFILE_TOOLS, describeBuiltinTool, type ShellGuidance, type ToolProfile } from '@toolhost/profiles';

/** The built-in tool implementations a runtime dispatches to (search_tools is built from the catalog). */
export interface BuiltinImplementations {
  exec_command: ToolImplementation;
  write_stdin: ToolImplementation;
  /** `applyOperations`, when present, applies file operations given as data (the runtime's `edit`). */
  apply_patch: ToolImplementation & { applyOperations?(operations: readonly FileOperation[], context: ToolContext): Promise<ToolResult> };
  /** `prepare`, when present, is called with the workspace as the runtime starts (code_search starts its index there). */
  code_search?: ToolImplementation & { prepare?(workspace: Workspace): void };
}

/** The tools of `profile` by name, in the order the model sees them; throws `invalid_options` for one not given. */
export function profileTools(
  profile: ToolProfile,
  implementations: BuiltinImplementations,
  searchTools: ToolImplementation,
): Map<string, ToolImplementation> {
  const tools = new Map<string, ToolImplementation>();
  for (const name of PROFILE_TOOLS[profile]) {
    const implementation = name === 'search_tools' ? searchTools : implementations[name as keyof BuiltinImplementations];
    if (!implementation) throw new ToolHostError('invalid_options', `profile ${profile} needs an implementation of ${name}`);
    tools.set(name, implementation);
  }
  return tools;
}

/** A built-in tool as the model sees it under a shell profile. */
export function builtinDefinition(implementation: ToolImplementation, guidance: ShellGuidance): ToolDefinition {
  const definition: ToolDefinition = {
    name: implementation.name,
    description: describeBuiltinTool(implementation.name, guidance),
    inputSchema: toJsonSchema(implementation.schema),
  };
  if (implementation.freeform) definition.freeform = implementation.freeform;
  return definition;
}
