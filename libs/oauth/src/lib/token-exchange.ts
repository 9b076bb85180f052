import { Injectable } from '@nestjs/common';
import type { RateLimitDecision } from '@acme/platform-rate-limiting';
import { ClientAuthentication, ClientAuthenticator } from './client-authenticator';
import { AuthenticatedClient } from './client.service';
import { OAuthErrors } from './oauth.errors';
import { TokenRequest, TokenResponse, TokenService } from './token.service';

/** What a gate (the tenant's rate-limit policies) decides for an authenticated client's token request. */
export type TokenGateDecision =
  | { outcome: 'proceed'; limit?: RateLimitDecision }
  | { outcome: 'reject'; limit: RateLimitDecision }
  | { outcome: 'redirect'; location: string };

/**
 * The port the token exchange asks after client authentication. The app binds it to the policy enforcer, so this
 * lib knows nothing of policies (docs/decisions.md, One rate-limit path).
 */
export abstract class TokenGate {
  abstract enforce(client: Pick<AuthenticatedClient, 'clientId' | 'isFirstParty'>): Promise<TokenGateDecision>;
}

/** The answer to one token request, with no HTTP in it: the controller turns it into a response once. */
export type TokenExchangeResult =
  { outcome: 'issued'; token: TokenResponse; limit?: RateLimitDecision } | { outcome: 'redirect'; location: string };

/** One client-credentials exchange: authenticate, ask the gate, issue. */
@Injectable()
export class TokenExchange {
  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly gate: TokenGate,
    private readonly tokens: TokenService,
  ) {}

  async exchange(
    request: TokenRequest & { credentials: ClientAuthentication },
    clientAddress: string,
  ): Promise<TokenExchangeResult> {
    // 429 once the failure budget of the client id or of the address is spent; failures spend it.
    const client = await this.clients.authenticate(request.credentials, clientAddress);
    const decision = await this.gate.enforce(client);
    if (decision.outcome === 'reject') throw OAuthErrors.tooManyRequests(decision.limit);
    if (decision.outcome === 'redirect') return decision;
    return { outcome: 'issued', token: await this.tokens.issue(client, request), limit: decision.limit };
  }
}
