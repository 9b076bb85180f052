import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { generateVerificationToken, SHORTEST_CODE, TOKEN_FORMATS, userIdInToken } from './verification-token';

describe('generateVerificationToken', () => {
  it('keeps the alphabet asked for, never goes below the server floor, and hex is 64 characters', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOKEN_FORMATS), fc.integer({ min: 4, max: 12 }), (format, length) => {
        const token = generateVerificationToken(format, length, randomUUID());
        if (format === 'hex') return expect(token).toMatch(/^[0-9a-f]{64}$/);
        const expected = Math.max(length, SHORTEST_CODE[format]);
        const alphabet = { numeric: '\\d', alpha: '[A-Za-z]', alphanumeric: '[A-Za-z0-9]' }[format];
        expect(token).toMatch(new RegExp(`^${alphabet}{${expected}}$`));
      }),
    );
  });

  it('never issues fewer than 8 characters nor about 40 bits', () => {
    expect(generateVerificationToken('numeric', 4, randomUUID())).toHaveLength(12);
    expect(generateVerificationToken('alpha', 4, randomUUID())).toHaveLength(8);
    expect(generateVerificationToken('alphanumeric', 6, randomUUID())).toHaveLength(8);
    for (const format of ['numeric', 'alpha', 'alphanumeric'] as const) {
      const symbols = { numeric: 10, alpha: 52, alphanumeric: 62 }[format];
      expect(SHORTEST_CODE[format] * Math.log2(symbols)).toBeGreaterThan(39.8);
    }
  });

  it('uses the whole alphabet, both cases included', () => {
    const seen = new Set(
      [...Array(200)].flatMap(() => [...generateVerificationToken('alphanumeric', 12, randomUUID())]),
    );
    expect(seen.size).toBe(62);
  });

  it('hex tokens carry their user, and 128 random bits after it', () => {
    fc.assert(
      fc.property(fc.uuid(), (userId) => {
        const token = generateVerificationToken('hex', 6, userId);
        expect(userIdInToken(token)).toBe(userId.toLowerCase());
        expect(token.slice(0, 32)).toBe(userId.replace(/-/g, '').toLowerCase());
      }),
    );
    const userId = randomUUID();
    const secrets = new Set([...Array(50)].map(() => generateVerificationToken('hex', 6, userId).slice(32)));
    expect(secrets.size).toBe(50);
  });

  it('finds no user in anything but a 64-character lower-case hex token', () => {
    const hex = generateVerificationToken('hex', 6, randomUUID());
    for (const token of ['', '123456', hex.toUpperCase(), `${hex}0`, hex.slice(1), `${hex.slice(0, 63)}g`])
      expect(userIdInToken(token)).toBeUndefined();
  });
});
