import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'sealed.v1';

/** A 256-bit key for one purpose, derived (HKDF-SHA-256) from a configured secret, so one secret serves several uses. */
export function derivePurposeKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32));
}

/**
 * Secrets the service must read back (a signing private key) cannot be hashed; they are stored sealed:
 * AES-256-GCM with a random 96-bit IV, `sealed.v1.<iv>.<tag>.<ciphertext>` (base64url), so a copy of the
 * table alone does not disclose them and a modified value fails to open.
 */
export function sealSecret(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}.`);
}

/** Throws when the value was sealed under another key or altered. */
export function openSecret(sealed: string, key: Buffer): string {
  const parts = sealed.split('.');
  if (parts.length !== 5 || `${parts[0]}.${parts[1]}` !== VERSION) throw new Error('Not a sealed secret');
  const [iv, tag, ciphertext] = parts.slice(2).map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
