/** A tool profile. */
export type ToolProfile = 'default' | 'advanced';

/** The profiles `profile` accepts; each built-in tool's spec says which of them list it. */
export const TOOL_PROFILES: readonly ToolProfile[] = ['default', 'advanced'];
