import { describe, expect, it } from 'vitest';
import { createSshEnvironment } from './ssh-environment.js';

// Port 9 on 127.0.0.1 is never reached: every case is refused before a connection is opened.
const base = { host: '127.0.0.1', port: 9, username: 'agent', privateKey: 'unused', root: '/srv/repo' };

describe('createSshEnvironment host key options', () => {
  it('refuses contradictory or malformed trust options before connecting', async () => {
    const cases = [
      [
        { insecureAcceptAnyHostKey: true, knownHosts: '' },
        'insecureAcceptAnyHostKey turns off the knownHosts and hostKey checks: give one or the other',
      ],
      [
        { insecureAcceptAnyHostKey: true, hostKey: 'SHA256:ruBR5X3xCy9s6JKTCI6r5YyA4e01StZJPsR6w8LpWbU' },
        'insecureAcceptAnyHostKey turns off the knownHosts and hostKey checks: give one or the other',
      ],
      [{ insecureAcceptAnyHostKey: 'yes' as unknown as boolean }, 'insecureAcceptAnyHostKey must be true or false'],
      [{ knownHosts: '', hostKey: 'SHA256:ruBR5X3xCy9s6JKTCI6r5YyA4e01StZJPsR6w8LpWbU' }, 'give knownHosts or hostKey, not both'],
    ] as const;
    for (const [options, message] of cases) {
      await expect(createSshEnvironment({ ...base, ...options })).rejects.toMatchObject({
        name: 'ToolHostError',
        code: 'invalid_options',
        message,
      });
    }
  });
});
