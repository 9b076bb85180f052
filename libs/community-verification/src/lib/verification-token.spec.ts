import fc from 'fast-check';
import { generateVerificationToken, TOKEN_FORMATS } from './verification-token';

describe('generateVerificationToken', () => {
  it('produces the format and length asked for (hex is always 64)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOKEN_FORMATS), fc.integer({ min: 4, max: 12 }), (format, length) => {
        const token = generateVerificationToken(format, length);
        const pattern = {
          hex: /^[0-9a-f]{64}$/,
          numeric: new RegExp(`^\\d{${length}}$`),
          alpha: new RegExp(`^[A-Za-z]{${length}}$`),
          alphanumeric: new RegExp(`^[A-Za-z0-9]{${length}}$`),
        }[format];
        expect(token).toMatch(pattern);
      }),
    );
  });

  it('uses the whole alphabet, both cases included', () => {
    const seen = new Set([...Array(200)].flatMap(() => [...generateVerificationToken('alphanumeric', 12)]));
    expect(seen.size).toBe(62);
  });
});
