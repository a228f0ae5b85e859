export {
  resolveShellProfile,
  detectPlatform,
  currentShellEnvironment,
  SHELL_PROFILE_SETTINGS,
  type ShellProfileSetting,
  type ShellPlatform,
  type ShellGuidance,
  type ShellEnvironment,
} from './shell-profile.js';
export { LEGACY_MIGRATIONS, isLegacyToolName, legacyToolMessage, type LegacyMigration } from './legacy-tools.js';
export { TOOL_PROFILES, type ToolProfile } from './tool-profile.js';
export {
  execCommandDescription,
  writeStdinDescription,
  applyPatchDescription,
  searchToolsDescription,
  codeSearchDescription,
} from './tool-descriptions.js';
export { isVerificationCommand } from './verification-command.js';
export { createVerificationGate, type VerificationGate, type VerificationGateOptions, type VerificationRun } from './verification-gate.js';
export { checkProfileSettings, vocabularyOf, type ProfileSettings, type ToolNames } from './profile-settings.js';
