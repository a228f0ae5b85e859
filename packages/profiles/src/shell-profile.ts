import type { ShellKind } from '@toolhost/core';

/** The `shellProfile` setting. */
export type ShellProfileSetting = 'auto' | 'unix_like' | 'powershell';

/** The platform the guidance is written for. */
export type ShellPlatform = 'linux' | 'macos' | 'wsl' | 'windows';

/** A resolved shell profile: the syntax to use and the platform guidance. */
export interface ShellGuidance {
  kind: ShellKind;
  platform: ShellPlatform;
  /** Whether commands find `rg` (ripgrep) on their PATH: the descriptions suggest `rg` only then, else `grep -rn`. */
  ripgrep: boolean;
}

/** What {@link resolveShellProfile} reads from the process; injectable for tests. */
export interface ShellEnvironment {
  platform: string;
  env: Record<string, string | undefined>;
  /** Whether commands find `rg` (ripgrep) on their PATH (default false: not known). */
  ripgrep?: boolean;
}

/** The settings `shellProfile` accepts. */
export const SHELL_PROFILE_SETTINGS: readonly ShellProfileSetting[] = ['auto', 'unix_like', 'powershell'];

/** Detects the platform: native Windows, WSL (`WSL_DISTRO_NAME`/`WSL_INTEROP`), macOS or Linux. */
export function detectPlatform(environment: ShellEnvironment): ShellPlatform {
  if (environment.platform === 'win32') return 'windows';
  if (environment.platform === 'darwin') return 'macos';
  if (environment.env.WSL_DISTRO_NAME || environment.env.WSL_INTEROP) return 'wsl';
  return 'linux';
}

/** Resolves `auto` to `powershell` on native Windows and `unix_like` elsewhere (WSL included). */
export function resolveShellProfile(setting: ShellProfileSetting, environment: ShellEnvironment): ShellGuidance {
  const platform = detectPlatform(environment);
  const ripgrep = environment.ripgrep === true;
  if (setting === 'auto') return { kind: platform === 'windows' ? 'powershell' : 'unix_like', platform, ripgrep };
  return { kind: setting, platform, ripgrep };
}

/** The current process's environment, for {@link resolveShellProfile}. */
export function currentShellEnvironment(): ShellEnvironment {
  const proc = (globalThis as { process?: { platform?: string; env?: Record<string, string | undefined> } }).process;
  return { platform: proc?.platform ?? 'linux', env: proc?.env ?? {} };
}
