import { createHash } from 'node:crypto';
// ssh2 is CommonJS whose `utils` export Node's ESM loader cannot name, so it is read from the default export.
import ssh2 from 'ssh2';

/** The key type named at the start of an SSH public key blob (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, …). */
export function publicKeyType(blob: Uint8Array): string | undefined {
  if (blob.length < 4) return undefined;
  const length = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).readUInt32BE(0);
  if (length === 0 || length > 64 || blob.length < 4 + length) return undefined;
  const name = Buffer.from(blob.subarray(4, 4 + length)).toString('latin1');
  return /^[\x21-\x7e]+$/.test(name) ? name : undefined;
}

/** The SHA256 fingerprint of a public key blob as OpenSSH prints it: `SHA256:` and base64 without padding. */
export function publicKeyFingerprint(blob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** Decodes the base64 field of a public key line into its blob, when it is a key of the named type that ssh2 can read. */
export function decodePublicKey(type: string, base64: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const blob = Buffer.from(base64, 'base64');
  if (publicKeyType(blob) !== type) return undefined;
  return ssh2.utils.parseKey(`${type} ${base64}`) instanceof Error ? undefined : blob;
}

/** The file name part OpenSSH gives a host key of this type (`/etc/ssh/ssh_host_<name>_key.pub`). */
export function hostKeyFileName(type: string): string {
  if (type.startsWith('ecdsa-')) return 'ecdsa';
  return type.replace(/^ssh-/, '').replace(/@.*$/, '');
}
