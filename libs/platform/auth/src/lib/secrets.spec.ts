import { digestSecret, generateSecret, safeEqual, verifySecret } from './secrets';
import { hashPassword, PASSWORD_HASH_CONCURRENCY, verifyPassword } from './passwords';

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

  it('answers every one of many concurrent checks (hashes wait their turn), and a failed hash frees its turn', async () => {
    const cheap = { N: 2 ** 10, r: 8, p: 1 };
    const stored = await hashPassword('pw', cheap);
    const broken = stored.replace('scrypt$1024$', 'scrypt$1000$'); // N must be a power of two: scrypt refuses it
    const checks = Array.from({ length: 3 * PASSWORD_HASH_CONCURRENCY + 2 }, (_, i) =>
      i === 1 ? verifyPassword('pw', broken) : verifyPassword(i % 2 ? 'no' : 'pw', stored),
    );
    const results = await Promise.allSettled(checks);
    expect(results[1].status).toBe('rejected');
    expect(results.filter((_, i) => i !== 1).map((r) => (r as PromiseFulfilledResult<boolean>).value)).toEqual(
      checks.map((_, i) => i % 2 === 0).filter((_, i) => i !== 1),
    );
    await expect(verifyPassword('pw', stored)).resolves.toBe(true);
  });
});
