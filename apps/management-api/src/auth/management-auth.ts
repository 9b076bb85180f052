import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { AppError } from '@acme/platform-errors';
import { ManagementErrorCode } from '../http/management-error-code';
import { bearerToken, JwtFailure, JwtVerificationError, verifyJwt } from '@acme/platform-auth';
import { rawRequest } from '@acme/platform-http';
import { OAuthSettings, SigningKeyStore } from '@acme/oauth';

/** Who called an /api/v2 route, from a verified access token. */
export interface ManagementPrincipal {
  clientId: string;
  scopes: ReadonlySet<string>;
}

export type AuthOutcome =
  { principal: ManagementPrincipal; failure?: undefined } | { principal?: undefined; failure: AppError };

/** The raw request as the gate middleware sees it (Fastify's middleware layer adds `ip`). */
export type ManagementRequest = IncomingMessage & { ip?: string; managementAuth?: AuthOutcome };

/** The gate's verdict, set by the middleware on the Node request under whatever the engine hands guards. */
export function managementAuthOf(request: ManagementRequest | { raw: ManagementRequest }): AuthOutcome | undefined {
  return rawRequest(request).managementAuth;
}

const invalidToken = () => new AppError(ManagementErrorCode.INVALID_TOKEN, 'unauthorized', 'Invalid token');
const invalidSignature = () => new AppError(ManagementErrorCode.INVALID_SIGNATURE, 'unauthorized', 'Invalid signature');
const notGlobal = () => new AppError(ManagementErrorCode.CLIENT_NOT_GLOBAL, 'unauthorized', 'Client is not global');

/** The three 401 messages of docs/management-api.md#errors; an unacceptable `alg` or unknown key is a bad signature. */
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
export function authenticateToken(
  token: string | undefined,
  keys: SigningKeyStore,
  settings: OAuthSettings,
): AuthOutcome & { expiresAt?: number } {
  if (!token) return { failure: invalidToken() };
  try {
    const claims = verifyJwt(token, {
      keyFor: (kid) => keys.publicKeyFor(kid),
      algorithms: ['RS256'],
      issuer: settings.issuer,
      audience: settings.managementAudience,
    });
    const clientId =
      typeof claims['azp'] === 'string'
        ? claims['azp']
        : typeof claims.sub === 'string'
          ? claims.sub.replace(/@clients$/, '')
          : undefined;
    if (!clientId) return { failure: invalidToken() };
    const scope = typeof claims['scope'] === 'string' ? claims['scope'] : '';
    const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
    return { principal: { clientId, scopes: new Set(scope.split(' ').filter(Boolean)) }, expiresAt };
  } catch (error) {
    if (error instanceof JwtVerificationError) return { failure: failureFor(error.reason) };
    return { failure: invalidToken() };
  }
}

const CACHE_SIZE = 10000;

/**
 * Clients reuse one token for many calls, so a verified token (the exact string whose signature checked
 * out) is remembered until its `exp`: the RSA verification then runs once per token, not once per call.
 * Failures are never cached. Bounded: the oldest entry goes first. Forgotten whenever the signing keys that
 * verify change (a revoked key's tokens are refused at once).
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly verified = new Map<string, { principal: ManagementPrincipal; expiresAt: number }>();
  private keysRevision = -1;

  constructor(
    private readonly keys: SigningKeyStore,
    private readonly settings: OAuthSettings,
  ) {}

  authenticate(request: { headers: IncomingHttpHeaders }): AuthOutcome {
    const token = bearerToken(request);
    if (this.keys.revision !== this.keysRevision) {
      this.verified.clear();
      this.keysRevision = this.keys.revision;
    }
    const cached = token === undefined ? undefined : this.verified.get(token);
    if (cached) {
      if (cached.expiresAt > Date.now()) return { principal: cached.principal };
      this.verified.delete(token!);
    }
    const outcome = authenticateToken(token, this.keys, this.settings);
    if (outcome.principal && token !== undefined && outcome.expiresAt !== undefined) {
      if (this.verified.size >= CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { principal: outcome.principal, expiresAt: outcome.expiresAt });
    }
    return outcome.principal ? { principal: outcome.principal } : { failure: outcome.failure! };
  }
}
