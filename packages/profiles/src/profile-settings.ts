import { ToolHostError } from '@toolhost/core';
import { SHELL_PROFILE_SETTINGS, type ShellProfileSetting } from './shell-profile.js';
import { TOOL_PROFILES, type ToolProfile } from './tool-profile.js';

/** The profile settings every host accepts. */
export interface ProfileSettings {
  profile?: ToolProfile;
  shellProfile?: ShellProfileSetting;
}

/** Throws `invalid_options` unless `profile` and `shellProfile` are absent or one of their accepted values. */
export function checkProfileSettings(settings: ProfileSettings): void {
  const { profile, shellProfile } = settings;
  if (profile !== undefined && !TOOL_PROFILES.includes(profile)) {
    throw new ToolHostError('invalid_options', `profile must be one of ${TOOL_PROFILES.join(', ')}, got ${JSON.stringify(profile)}`);
  }
  if (shellProfile !== undefined && !SHELL_PROFILE_SETTINGS.includes(shellProfile)) {
    throw new ToolHostError('invalid_options', `shellProfile must be one of ${SHELL_PROFILE_SETTINGS.join(', ')}, got ${JSON.stringify(shellProfile)}`);
  }
}
