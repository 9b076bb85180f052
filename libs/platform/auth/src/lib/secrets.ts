import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A long random machine secret (client secrets, API keys, refresh tokens), URL-safe, with an optional prefix. */
export function generateSecret(prefix = '', bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/**
 * Digest under which a machine secret is stored and looked up. Long random values need no slow hash;
 * a server-side key (HMAC) means a leaked table alone cannot be used to test guesses.
 */
export function digestSecret(secret: string, key?: string | Buffer): string {
  return key === undefined
    ? createHash('sha256').update(secret).digest('hex')
    : createHmac('sha256', key).update(secret).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/** Checks a presented secret against a stored digest in constant time. */
export function verifySecret(presented: string, storedDigest: string, key?: string | Buffer): boolean {
  return safeEqual(digestSecret(presented, key), storedDigest);
}
