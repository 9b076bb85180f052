import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CredentialLimitTarget, RateLimitEnforcer } from '@acme/platform-rate-limiting';
import { ClientAssertionsService } from './client-assertions.service';
import type { AuthenticatedClient } from './client.service';
import { OAuthError, OAuthErrors } from './oauth.errors';
import { FailedAuthenticationLimits, OAuthSettings } from './oauth.settings';
import { ClientCredentials, TokenService } from './token.service';

/** A signed client assertion (private_key_jwt); `clientId` when the request also names the client. */
export interface ClientAssertion {
  assertion: string;
  clientId?: string;
}

export type ClientAuthentication = ClientCredentials | ClientAssertion;

/** Auth0's brute-force protection defaults, scaled to a client secret (docs/security.md, API2). */
export const DEFAULT_FAILED_AUTHENTICATION_LIMITS: FailedAuthenticationLimits = {
  perClient: [{ limit: 20, windowSeconds: 300 }],
  perAddress: [{ limit: 50, windowSeconds: 300 }],
};

/** A key part of bounded size: ids past 245 characters (never a stored client) are hashed. */
const keyPart = (value: string): string =>
  value.length <= 245 ? value : `sha256:${createHash('sha256').update(value).digest('hex')}`;

/**
 * Authenticates the caller of the token endpoint (secret or signed assertion), under failure budgets per client id
 * and per client address: once either is spent the request is refused (429) before any secret is checked. Only
 * failures spend them, so a client that authenticates keeps its budget. They are credential limits: while Redis
 * is away they are counted per instance, never waived.
 */
@Injectable()
export class ClientAuthenticator {
  private readonly limits: FailedAuthenticationLimits;

  constructor(
    private readonly tokens: TokenService,
    private readonly assertions: ClientAssertionsService,
    private readonly enforcer: RateLimitEnforcer,
    settings: OAuthSettings,
  ) {
    this.limits = settings.failedAuthentication ?? DEFAULT_FAILED_AUTHENTICATION_LIMITS;
  }

  async authenticate(credentials: ClientAuthentication, clientAddress: string): Promise<AuthenticatedClient> {
    const budgets = this.budgets(credentials.clientId, clientAddress);
    const peeks = await Promise.all(
      budgets.map((budget) => this.enforcer.decideCredentialLimit('client-authentication', budget, { peek: true })),
    );
    const refused = peeks.find((decision) => !decision.allowed);
    if (refused) throw OAuthErrors.tooManyRequests(refused);
    try {
      return await this.check(credentials);
    } catch (error) {
      if (error instanceof OAuthError && error.oauthCode === 'invalid_client')
        await Promise.all(
          budgets.map((budget) => this.enforcer.decideCredentialLimit('client-authentication', budget)),
        );
      throw error;
    }
  }

  private check(credentials: ClientAuthentication): Promise<AuthenticatedClient> {
    return 'assertion' in credentials
      ? this.assertions.authenticate(credentials.assertion, credentials.clientId)
      : this.tokens.authenticateClient(credentials);
  }

  private budgets(clientId: string | undefined, clientAddress: string): CredentialLimitTarget[] {
    const budgets = [{ key: `oauth:auth-failures:address:${keyPart(clientAddress)}`, windows: this.limits.perAddress }];
    if (clientId !== undefined)
      budgets.push({ key: `oauth:auth-failures:client:${keyPart(clientId)}`, windows: this.limits.perClient });
    return budgets;
  }
}
