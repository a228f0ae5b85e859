import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost, normalizeOrigin } from './request-origin.js';

describe('request origin checks', () => {
  it('tells loopback bind addresses from the others', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'].map(isLoopbackAddress)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1'].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('accepts loopback Host headers on any port and nothing else', () => {
    expect(['localhost', 'localhost:8765', 'LOCALHOST:1', '127.0.0.1:80', '127.0.0.2', '[::1]', '[::1]:8765'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    const refused = [
      undefined,
      '',
      'evil.example',
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      'localhost@evil.example',
      '[::2]:80',
      '0.0.0.0:8765',
      'x y',
    ];
    expect(refused.map(isLoopbackHost)).toEqual(refused.map(() => false));
  });

  it('serves no Origin, loopback origins and the allowed ones', () => {
    const allowed = new Set(['https://app.example']);
    const accepted = [
      undefined,
      'http://localhost',
      'https://localhost:6274',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'https://app.example',
    ];
    expect(accepted.map((origin) => isAllowedOrigin(origin, allowed))).toEqual(accepted.map(() => true));
    const refused = [
      'null',
      '',
      'https://evil.example',
      'https://app.example:444',
      'http://app.example',
      'ws://localhost',
      'file://',
      'http://localhost.evil.example',
    ];
    expect(refused.map((origin) => isAllowedOrigin(origin, allowed))).toEqual(refused.map(() => false));
  });

  it('normalizes origins as browsers send them and rejects anything with a path, query or credentials', () => {
    expect(['https://App.Example/', 'http://x.example:80', 'https://x.example:8443'].map(normalizeOrigin)).toEqual([
      'https://app.example',
      'http://x.example',
      'https://x.example:8443',
    ]);
    expect(
      ['app.example', '*', 'https://x.example/path', 'https://x.example/?q', 'https://u:p@x.example', 'ftp://x.example'].map(
        normalizeOrigin,
      ),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
