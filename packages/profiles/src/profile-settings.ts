import { TOOLHOST_VOCABULARY, ToolHostError, type ToolVocabulary } from '@toolhost/core';
import { SHELL_PROFILE_SETTINGS, type ShellProfileSetting } from './shell-profile.js';
import { TOOL_PROFILES, type ToolProfile } from './tool-profile.js';

/** The profile settings every host accepts. */
export interface ProfileSettings {
  profile?: ToolProfile;
  shellProfile?: ShellProfileSetting;
  /** The names the model was given for toolhost's shell and edit tools, when the caller renamed them. */
  toolNames?: ToolNames;
}

/** The names a caller gave toolhost's tools in the model's tool list; texts that point at another tool use them. */
export interface ToolNames {
  /** The name of exec_command (default `exec_command`). */
  shell?: string;
  /** The name of apply_patch (default `apply_patch`). */
  edit?: string;
}

/** The vocabulary of toolhost's tools under the names a caller gave them. */
export function vocabularyOf(toolNames: ToolNames = {}): ToolVocabulary {
  return {
    ...TOOLHOST_VOCABULARY,
    ...(toolNames.shell ? { shell: toolNames.shell } : {}),
    ...(toolNames.edit ? { edit: toolNames.edit } : {}),
  };
}

/** Throws `invalid_options` unless `profile`, `shellProfile` and `toolNames` are absent or accepted values. */
export function checkProfileSettings(settings: ProfileSettings): void {
  const { profile, shellProfile, toolNames } = settings;
  if (toolNames !== undefined) {
    if (!toolNames || typeof toolNames !== 'object' || Array.isArray(toolNames))
      throw new ToolHostError('invalid_options', 'toolNames must be an object { shell?, edit? }');
    for (const key of Object.keys(toolNames)) {
      const value = (toolNames as Record<string, unknown>)[key];
      if (key !== 'shell' && key !== 'edit')
        throw new ToolHostError('invalid_options', `toolNames has no field ${JSON.stringify(key)}; use shell and edit`);
      if (value !== undefined && (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(value))) {
        throw new ToolHostError(
          'invalid_options',
          `toolNames.${key} must be a tool name (letters, digits, _ . -), got ${JSON.stringify(value)}`,
        );
      }
    }
  }
  if (profile !== undefined && !TOOL_PROFILES.includes(profile)) {
    throw new ToolHostError('invalid_options', `profile must be one of ${TOOL_PROFILES.join(', ')}, got ${JSON.stringify(profile)}`);
  }
  if (shellProfile !== undefined && !SHELL_PROFILE_SETTINGS.includes(shellProfile)) {
    throw new ToolHostError(
      'invalid_options',
      `shellProfile must be one of ${SHELL_PROFILE_SETTINGS.join(', ')}, got ${JSON.stringify(shellProfile)}`,
    );
  }
}
