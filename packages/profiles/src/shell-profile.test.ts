import { describe, expect, it } from 'vitest';
import { resolveShellProfile } from './shell-profile.js';

describe('resolveShellProfile', () => {
  it.each([
    ['linux', {}, { kind: 'unix_like', platform: 'linux' }],
    ['darwin', {}, { kind: 'unix_like', platform: 'macos' }],
    ['linux', { WSL_DISTRO_NAME: 'Ubuntu' }, { kind: 'unix_like', platform: 'wsl' }],
    ['linux', { WSL_INTEROP: '/run/WSL/1_interop' }, { kind: 'unix_like', platform: 'wsl' }],
    ['win32', {}, { kind: 'powershell', platform: 'windows' }],
  ] as const)('auto on %s %j', (platform, env, expected) => {
    expect(resolveShellProfile('auto', { platform, env })).toEqual(expected);
  });

  it('keeps an explicit setting on any platform', () => {
    expect(resolveShellProfile('powershell', { platform: 'linux', env: {} })).toEqual({ kind: 'powershell', platform: 'linux' });
    expect(resolveShellProfile('unix_like', { platform: 'win32', env: {} })).toEqual({ kind: 'unix_like', platform: 'windows' });
  });
});
