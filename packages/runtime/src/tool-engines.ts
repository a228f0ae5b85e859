import type { ToolContext, ToolImplementation, ToolResult, Workspace } from '@toolhost/core';
import { createApplyPatchTool, type FileOperation } from '@toolhost/patch';
import type { ToolProfile } from '@toolhost/profiles';
import type { BuiltinEngines } from './builtin-tool-spec.js';
import { BUILTIN_TOOL_SPECS, type BuiltinToolName } from './builtin-tool-specs.js';

/** exec_command and write_stdin sharing one session table (a host's processes, or scripted commands). */
export interface ExecEngine {
  execCommand: ToolImplementation;
  writeStdin: ToolImplementation;
}

/** The apply_patch engine; `applyOperations`, when present, applies file operations given as data (the runtime's `edit`). */
export type PatchEngine = ToolImplementation & {
  applyOperations?(operations: readonly FileOperation[], context: ToolContext): Promise<ToolResult>;
};

/** The code_search engine; `prepare`, when present, is called with the workspace as the runtime starts (it starts its index there). */
export type CodeSearchEngine = ToolImplementation & { prepare?(workspace: Workspace): void };

/** The factories of the engines behind the built-in tools; a host gives all three, the same way for every host. */
export interface ToolEngineFactories {
  exec: () => ExecEngine;
  patch: () => PatchEngine;
  codeSearch: () => CodeSearchEngine;
}

/** The implementation of each built-in tool of a profile but search_tools, which the runtime builds from its catalog. */
export type BuiltinImplementations = {
  [Name in Exclude<BuiltinToolName, 'search_tools'>]?: ReturnType<Extract<(typeof BUILTIN_TOOL_SPECS)[number], { name: Name }>['create']>;
};

/** The patch engine over any Workspace. */
export function createPatchEngine(): PatchEngine {
  return createApplyPatchTool();
}

/** Each engine built by its factory on first use, so a profile builds only the engines of its tools. */
export function lazyEngines(engines: ToolEngineFactories, searchTools: () => ToolImplementation): BuiltinEngines {
  const once = <T>(build: () => T): (() => T) => {
    let built: { value: T } | undefined;
    return () => (built ??= { value: build() }).value;
  };
  return { exec: once(engines.exec), patch: once(engines.patch), codeSearch: once(engines.codeSearch), searchTools: once(searchTools) };
}

/**
 * The built-in tools of `profile` but the catalog's, each made by its spec from its engine; code_search's engine only
 * for a profile that has the tool, since building it loads the code search package.
 */
export function createBuiltinImplementations(profile: ToolProfile, engines: ToolEngineFactories): BuiltinImplementations {
  const built = lazyEngines(engines, () => {
    throw new TypeError('search_tools is built from the runtime catalog');
  });
  const implementations: Record<string, ToolImplementation> = {};
  for (const spec of BUILTIN_TOOL_SPECS) {
    if (spec.role !== 'catalog' && spec.profiles.includes(profile)) implementations[spec.name] = spec.create(built);
  }
  return implementations as BuiltinImplementations;
}
