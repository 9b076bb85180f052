import fc from 'fast-check';
import { derivePurposeKey, isSealed, openSecret, sealSecret } from './sealed-secrets';

describe('sealed secrets', () => {
  const key = derivePurposeKey('a configured secret of some length', 'signing-key');

  it('opens what it sealed, for any text, and never shows the text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        const sealed = sealSecret(text, key);
        expect(isSealed(sealed)).toBe(true);
        expect(openSecret(sealed, key)).toBe(text);
        if (text.length >= 8) expect(sealed).not.toContain(text);
      }),
    );
  });

  it('seals the same text differently each time (random IV)', () => {
    expect(sealSecret('same', key)).not.toBe(sealSecret('same', key));
  });

  it('refuses another key, another purpose and an altered value', () => {
    const sealed = sealSecret('-----BEGIN PRIVATE KEY-----', key);
    expect(() => openSecret(sealed, derivePurposeKey('another secret', 'signing-key'))).toThrow();
    expect(() => openSecret(sealed, derivePurposeKey('a configured secret of some length', 'other'))).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    expect(() => openSecret([...parts.slice(0, 4), flipped.toString('base64url')].join('.'), key)).toThrow();
    expect(() => openSecret('plain text', key)).toThrow('Not a sealed secret');
  });
});
