import type { Request } from 'express';
import { AppError } from '@acme/platform-errors';
import { bearerToken, JwtFailure, JwtVerificationError, verifyJwt } from '@acme/platform-auth';
import { OAuthSettings, SigningKeyStore } from '@acme/oauth';

/** Who called an /api/v2 route, from a verified access token. */
export interface ManagementPrincipal {
  clientId: string;
  scopes: ReadonlySet<string>;
}

export type AuthOutcome = { principal: ManagementPrincipal; failure?: undefined } | { principal?: undefined; failure: AppError };

export type ManagementRequest = Request & { managementAuth?: AuthOutcome };

const invalidToken = () => new AppError('INVALID_TOKEN', 'unauthorized', 'Invalid token');
const invalidSignature = () => new AppError('INVALID_SIGNATURE', 'unauthorized', 'Invalid signature');
const notGlobal = () => new AppError('CLIENT_NOT_GLOBAL', 'unauthorized', 'Client is not global');

/** The three 401 messages of DECISIONS.md §1; an unacceptable `alg` or unknown key is a bad signature. */
function failureFor(reason: JwtFailure): AppError {
  switch (reason) {
    case 'signature':
    case 'algorithm':
      return invalidSignature();
    case 'audience':
      return notGlobal();
    default:
      return invalidToken();
  }
}

/** Verifies the bearer JWT (RS256 only, our key, `exp`, `iss`, `aud`) without throwing. */
export function authenticateRequest(request: Request, keys: SigningKeyStore, settings: OAuthSettings): AuthOutcome {
  const token = bearerToken(request);
  if (!token) return { failure: invalidToken() };
  try {
    const claims = verifyJwt(token, {
      keyFor: (kid) => keys.publicKeyFor(kid),
      algorithms: ['RS256'],
      issuer: settings.issuer,
      audience: settings.managementAudience,
    });
    const clientId = typeof claims['azp'] === 'string' ? claims['azp'] : typeof claims.sub === 'string' ? claims.sub.replace(/@clients$/, '') : undefined;
    if (!clientId) return { failure: invalidToken() };
    const scope = typeof claims['scope'] === 'string' ? claims['scope'] : '';
    return { principal: { clientId, scopes: new Set(scope.split(' ').filter(Boolean)) } };
  } catch (error) {
    if (error instanceof JwtVerificationError) return { failure: failureFor(error.reason) };
    return { failure: invalidToken() };
  }
}
