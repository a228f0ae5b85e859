/** A tool profile. */
export type ToolProfile = 'default' | 'advanced';

/** The tool names of each profile, in the order the model sees them. */
export const PROFILE_TOOLS: Readonly<Record<ToolProfile, readonly string[]>> = {
  default: ['exec_command', 'write_stdin', 'apply_patch', 'search_tools'],
  advanced: ['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search'],
};

/** The profiles `profile` accepts. */
export const TOOL_PROFILES: readonly ToolProfile[] = ['default', 'advanced'];
