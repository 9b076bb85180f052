import jwt, { Algorithm, JwtPayload } from 'jsonwebtoken';

export type JwtFailure = 'malformed' | 'algorithm' | 'signature' | 'expired' | 'not_before' | 'audience' | 'issuer';

export class JwtVerificationError extends Error {
  constructor(
    readonly reason: JwtFailure,
    message: string,
  ) {
    super(message);
    this.name = 'JwtVerificationError';
  }
}

export interface JwtVerifyOptions {
  /** Verification key for the token's `kid` (undefined when the kid is unknown). */
  keyFor: (kid: string | undefined) => string | Buffer | undefined;
  algorithms: Algorithm[];
  issuer?: string;
  audience?: string;
  clockToleranceSeconds?: number;
}

/**
 * Verifies a compact JWS with an explicit algorithm allow-list (so `none` and HS/RS confusion are refused)
 * and classifies the failure, which callers map to their API's messages.
 */
export function verifyJwt(token: string, options: JwtVerifyOptions): JwtPayload {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded.payload === 'string') throw new JwtVerificationError('malformed', 'Malformed token');
  const alg = decoded.header.alg as Algorithm;
  if (!options.algorithms.includes(alg)) throw new JwtVerificationError('algorithm', `Algorithm ${alg} is not allowed`);
  const key = options.keyFor(decoded.header.kid);
  if (key === undefined) throw new JwtVerificationError('signature', 'Unknown signing key');
  try {
    return jwt.verify(token, key, {
      algorithms: options.algorithms,
      issuer: options.issuer,
      audience: options.audience,
      clockTolerance: options.clockToleranceSeconds ?? 0,
    }) as JwtPayload;
  } catch (error) {
    const err = error as Error;
    if (err.name === 'TokenExpiredError') throw new JwtVerificationError('expired', 'Token expired');
    if (err.name === 'NotBeforeError') throw new JwtVerificationError('not_before', 'Token not yet valid');
    if (/audience/i.test(err.message)) throw new JwtVerificationError('audience', 'Wrong audience');
    if (/issuer/i.test(err.message)) throw new JwtVerificationError('issuer', 'Wrong issuer');
    if (/signature/i.test(err.message)) throw new JwtVerificationError('signature', 'Invalid signature');
    throw new JwtVerificationError('malformed', 'Malformed token');
  }
}
