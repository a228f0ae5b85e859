import type { ToolImplementation } from '@toolhost/core';
import { createApplyPatchTool } from '@toolhost/patch';
import { PROFILE_TOOLS, type ToolProfile } from '@toolhost/profiles';
import type { BuiltinImplementations } from './builtin-tools.js';

/** exec_command and write_stdin sharing one session table (a host's processes, or scripted commands). */
export interface ExecEngine {
  execCommand: ToolImplementation;
  writeStdin: ToolImplementation;
}

/** The apply_patch engine. */
export type PatchEngine = BuiltinImplementations['apply_patch'];

/** The code_search engine. */
export type CodeSearchEngine = NonNullable<BuiltinImplementations['code_search']>;

/** The factories of the engines behind the built-in tools; a host gives all three, the same way for every host. */
export interface ToolEngineFactories {
  exec: () => ExecEngine;
  patch: () => PatchEngine;
  codeSearch: () => CodeSearchEngine;
}

/** The patch engine over any Workspace. */
export function createPatchEngine(): PatchEngine {
  return createApplyPatchTool();
}

/**
 * The built-in tools of `profile`, each engine built by its factory; code_search's only for a profile that has the tool,
 * since building it loads the code search package.
 */
export function createBuiltinImplementations(profile: ToolProfile, engines: ToolEngineFactories): BuiltinImplementations {
  const exec = engines.exec();
  const implementations: BuiltinImplementations = {
    exec_command: exec.execCommand,
    write_stdin: exec.writeStdin,
    apply_patch: engines.patch(),
  };
  if (PROFILE_TOOLS[profile].includes('code_search')) implementations.code_search = engines.codeSearch();
  return implementations;
}
