import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodePublicKey, hostKeyFileName, publicKeyFingerprint, publicKeyType } from './ssh-public-key.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const fields = (name: string) => fixture(name).trim().split(' ') as [string, string];
const blob = (name: string) => Buffer.from(fields(name)[1], 'base64');

describe('ssh public keys', () => {
  it('fingerprints every key type as ssh-keygen -lf prints it', () => {
    const printed = fixture('fingerprints.txt')
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    expect(printed.map(([, , file]) => [file, publicKeyFingerprint(blob(file!))])).toEqual(
      printed.map(([, fingerprint, file]) => [file, fingerprint]),
    );
  });

  it('reads the key type from the blob', () => {
    expect(['host-ed25519.pub', 'host-ecdsa.pub', 'host-rsa.pub'].map((name) => publicKeyType(blob(name)))).toEqual([
      'ssh-ed25519',
      'ecdsa-sha2-nistp256',
      'ssh-rsa',
    ]);
    expect([Buffer.from([0, 0, 0, 9, 65]), Buffer.from([0, 0]), Buffer.from([0, 0, 0, 1, 10])].map(publicKeyType)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('decodes a key only when its field is base64 of a key of the named type', () => {
    const [type, base64] = fields('host-ecdsa.pub');
    expect(decodePublicKey(type, base64)?.equals(blob('host-ecdsa.pub'))).toBe(true);
    expect(decodePublicKey('ssh-rsa', base64)).toBeUndefined();
    expect(decodePublicKey(type, base64.slice(0, 40))).toBeUndefined();
    expect(decodePublicKey(type, `${base64}!`)).toBeUndefined();
  });

  it("names the host key file OpenSSH's sshd keeps for each type", () => {
    expect(['ssh-ed25519', 'ecdsa-sha2-nistp384', 'ssh-rsa'].map(hostKeyFileName)).toEqual(['ed25519', 'ecdsa', 'rsa']);
  });
});
