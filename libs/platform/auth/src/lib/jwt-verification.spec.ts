import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { JwtVerificationError, verifyJwt } from './jwt-verification';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const options = {
  keyFor: (kid?: string) => (kid === 'k1' ? publicPem : undefined),
  algorithms: ['RS256' as const],
  issuer: 'https://iss/',
  audience: 'https://aud/',
};
const sign = (claims: object, key = privateKey, extra: jwt.SignOptions = {}) =>
  jwt.sign({ sub: 'c@clients', exp: Math.floor(Date.now() / 1000) + 60, ...claims }, key, {
    algorithm: 'RS256',
    keyid: 'k1',
    issuer: 'https://iss/',
    audience: 'https://aud/',
    ...extra,
  });

function reason(token: string): string {
  try {
    verifyJwt(token, options);
  } catch (error) {
    return (error as JwtVerificationError).reason;
  }
  return 'accepted';
}

describe('verifyJwt', () => {
  it('accepts a valid token and returns its claims', () => {
    expect(verifyJwt(sign({ scope: 'read:x' }), options)).toMatchObject({ sub: 'c@clients', scope: 'read:x' });
  });

  it('refuses alg none', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'k1' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: 'x', iss: 'https://iss/', aud: 'https://aud/' })).toString(
      'base64url',
    );
    expect(reason(`${header}.${body}.`)).toBe('algorithm');
  });

  it('refuses HS256 signed with the public key (algorithm confusion)', () => {
    const token = jwt.sign({ sub: 'x' }, publicPem, {
      algorithm: 'HS256',
      keyid: 'k1',
      issuer: 'https://iss/',
      audience: 'https://aud/',
    });
    expect(reason(token)).toBe('algorithm');
  });

  it.each([
    ['signed with another key', () => sign({}, other.privateKey), 'signature'],
    ['unknown kid', () => sign({}, privateKey, { keyid: 'k2' }), 'signature'],
    ['expired', () => sign({ exp: Math.floor(Date.now() / 1000) - 10 }), 'expired'],
    ['wrong audience', () => sign({}, privateKey, { audience: 'https://other/' }), 'audience'],
    ['wrong issuer', () => sign({}, privateKey, { issuer: 'https://evil/' }), 'issuer'],
    ['garbage', () => 'not.a.jwt', 'malformed'],
  ])('classifies a token %s', (_name, make, expected) => {
    expect(reason(make())).toBe(expected);
  });
});
