import { digestSecret, generateSecret, safeEqual, verifySecret } from './secrets';
import { hashPassword, verifyPassword } from './passwords';

describe('machine secrets', () => {
  it('generates long, prefixed, unique URL-safe values', () => {
    const a = generateSecret('sk_');
    const b = generateSecret('sk_');
    expect(a).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('stores a digest, never the secret, and verifies against it', () => {
    const secret = generateSecret();
    const digest = digestSecret(secret, 'server-key');
    expect(digest).not.toContain(secret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySecret(secret, digest, 'server-key')).toBe(true);
    expect(verifySecret(`${secret}x`, digest, 'server-key')).toBe(false);
    expect(verifySecret(secret, digest, 'other-key')).toBe(false);
  });

  it('compares strings of different lengths safely', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('passwords', () => {
  it('hashes with a per-password salt and verifies', async () => {
    const one = await hashPassword('correct horse');
    const two = await hashPassword('correct horse');
    expect(one).not.toBe(two);
    expect(one.startsWith('scrypt$32768$8$1$')).toBe(true);
    await expect(verifyPassword('correct horse', one)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', one)).resolves.toBe(false);
    await expect(verifyPassword('x', 'not-a-hash')).resolves.toBe(false);
  });
});
