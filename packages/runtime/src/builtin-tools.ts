import { ToolHostError, toDataJsonSchema, toJsonSchema, type ToolDefinition, type ToolImplementation } from '@toolhost/core';
import type { ShellGuidance, ToolProfile } from '@toolhost/profiles';
import type { AnyBuiltinToolSpec } from './builtin-tool-specs.js';
import { BUILTIN_TOOL_SPECS } from './builtin-tool-specs.js';
import type { BuiltinImplementations } from './tool-engines.js';

/** A built-in tool of a profile: its spec and its implementation. */
export interface BuiltinTool {
  spec: AnyBuiltinToolSpec;
  implementation: ToolImplementation;
}

/** The tools of `profile` by name, in the order the model sees them; throws `invalid_options` for one not given. */
export function profileTools(
  profile: ToolProfile,
  implementations: BuiltinImplementations,
  searchTools: ToolImplementation,
): Map<string, BuiltinTool> {
  const tools = new Map<string, BuiltinTool>();
  for (const spec of BUILTIN_TOOL_SPECS) {
    if (!spec.profiles.includes(profile)) continue;
    const implementation = spec.role === 'catalog' ? searchTools : implementations[spec.name as keyof BuiltinImplementations];
    if (!implementation) throw new ToolHostError('invalid_options', `profile ${profile} needs an implementation of ${spec.name}`);
    tools.set(spec.name, { spec, implementation });
  }
  return tools;
}

/** A built-in tool as the model sees it under a shell profile, with what adapters read of it (role, hints, data schema). */
export function builtinDefinition({ spec, implementation }: BuiltinTool, guidance: ShellGuidance): ToolDefinition {
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.describe(guidance),
    inputSchema: toJsonSchema(spec.inputSchema),
  };
  if (implementation.freeform) definition.freeform = implementation.freeform;
  // Not enumerable: a definition's JSON, and a provider's tool made by spreading it, stay what the model sees.
  return Object.defineProperties(definition, {
    outputSchema: { value: toDataJsonSchema(spec.dataSchema), enumerable: false },
    annotations: { value: { ...spec.annotations }, enumerable: false },
    role: { value: spec.role, enumerable: false },
  });
}
