import { describe, expect, it } from 'vitest';
import { resolveShellProfile } from './shell-profile.js';

describe('resolveShellProfile', () => {
  it.each([
    ['linux', {}, { kind: 'unix_like', platform: 'linux', ripgrep: false }],
    ['darwin', {}, { kind: 'unix_like', platform: 'macos', ripgrep: false }],
    ['linux', { WSL_DISTRO_NAME: 'Ubuntu' }, { kind: 'unix_like', platform: 'wsl', ripgrep: false }],
    ['linux', { WSL_INTEROP: '/run/WSL/1_interop' }, { kind: 'unix_like', platform: 'wsl', ripgrep: false }],
    ['win32', {}, { kind: 'powershell', platform: 'windows', ripgrep: false }],
  ] as const)('auto on %s %j', (platform, env, expected) => {
    expect(resolveShellProfile('auto', { platform, env })).toEqual(expected);
  });

  it('keeps an explicit setting on any platform', () => {
    expect(resolveShellProfile('powershell', { platform: 'linux', env: {} })).toEqual({
      kind: 'powershell',
      platform: 'linux',
      ripgrep: false,
    });
    expect(resolveShellProfile('unix_like', { platform: 'win32', env: {} })).toEqual({
      kind: 'unix_like',
      platform: 'windows',
      ripgrep: false,
    });
  });

  it('says ripgrep is available only when the environment says so', () => {
    expect(resolveShellProfile('auto', { platform: 'linux', env: {}, ripgrep: true }).ripgrep).toBe(true);
    expect(resolveShellProfile('unix_like', { platform: 'darwin', env: {}, ripgrep: false }).ripgrep).toBe(false);
    expect(resolveShellProfile('auto', { platform: 'linux', env: { PATH: '/usr/bin' } }).ripgrep).toBe(false);
  });
});
