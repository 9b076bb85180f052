import { Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { IncomingHttpHeaders } from 'node:http';
import { ClientAuthenticator, OAuthErrors, OAuthSettings, SigningKeyStore, TokenService } from '@acme/oauth';
import { EnforcementDecision, PolicyEnforcer } from '@acme/policies';
import { sendRedirect, setResponseHeaders } from '@acme/platform-http';
import { rateLimitHeaders } from '@acme/platform-rate-limiting';
import {
  JwksBody,
  OAuthErrorBody,
  OpenIdConfigurationBody,
  openIdConfiguration,
  TokenResponseBody,
} from './dto/token.response.dto';
import { TokenRequestBody } from './dto/token.request.dto';
import { parseTokenRequest } from './token-request';

@ApiTags('oauth')
@ApiExtraModels(OAuthErrorBody)
@Controller()
export class TokenController {
  constructor(
    private readonly tokens: TokenService,
    private readonly keys: SigningKeyStore,
    private readonly enforcer: PolicyEnforcer,
    private readonly settings: OAuthSettings,
    private readonly clients: ClientAuthenticator,
  ) {}

  @Post('oauth/token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Client-credentials token',
    description:
      'OAuth 2.0 client credentials (RFC 6749 §4.4); client authentication with the secret in the body or HTTP Basic, or a signed client assertion (private_key_jwt, RFC 7523).',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestBody })
  @ApiOkResponse({ type: TokenResponseBody })
  @ApiResponse({ status: 400, description: 'invalid_request, unsupported_grant_type', type: OAuthErrorBody })
  @ApiResponse({ status: 401, description: 'invalid_client', type: OAuthErrorBody })
  @ApiResponse({
    status: 403,
    description: 'access_denied (unknown audience, no grant, no granted scope), unauthorized_client',
    type: OAuthErrorBody,
  })
  @ApiResponse({
    status: 302,
    description: 'Over the limit of a `redirect` rate-limit policy: redirected to its redirect_uri',
  })
  @ApiResponse({
    status: 429,
    description: 'too_many_requests (rate-limit policy, or too many failed client authentications)',
    type: OAuthErrorBody,
  })
  async token(
    @Req() request: { body?: unknown; headers: IncomingHttpHeaders; ip?: string },
    @Res({ passthrough: true }) response: unknown,
  ): Promise<TokenResponseBody | undefined> {
    const parsed = parseTokenRequest(request);
    // 429 once the failure budget of the client id or of the address is spent; failures spend it.
    const client = await this.clients.authenticate(parsed.credentials, request.ip ?? 'unknown');
    // Rate-limit policies of the OAuth authentication API (429 thrown, 302 already sent, or proceed).
    if (answered(await this.enforcer.enforce(client), response)) return undefined;
    return this.tokens.issue(client, parsed);
  }

  @Get('.well-known/openid-configuration')
  @ApiTags('oauth')
  @ApiOperation({ summary: 'Discovery: issuer, JWKS and token endpoint, and what the token endpoint supports' })
  @ApiOkResponse({ type: OpenIdConfigurationBody })
  openIdConfiguration(): OpenIdConfigurationBody {
    return openIdConfiguration(this.settings.issuer);
  }

  @Get('.well-known/jwks.json')
  @ApiTags('oauth')
  @ApiOperation({ summary: 'Public keys that verify access tokens' })
  @ApiOkResponse({ type: JwksBody })
  jwks(): JwksBody {
    return this.keys.jwks();
  }
}

/**
 * The HTTP edge of a policy decision. True when the response is already answered (302 to the policy's
 * redirect_uri); throws the OAuth 429 (the exception filter adds Retry-After and X-RateLimit-* from the
 * decision); otherwise sets the bucket headers of a block policy, and the token is issued.
 */
function answered(decision: EnforcementDecision, response: unknown): boolean {
  switch (decision.outcome) {
    case 'proceed':
      if (decision.limit) setResponseHeaders(response, rateLimitHeaders(decision.limit));
      return false;
    case 'reject':
      throw OAuthErrors.tooManyRequests(decision.limit);
    case 'redirect':
      setResponseHeaders(response, { 'Cache-Control': 'no-store' });
      sendRedirect(response, decision.location, 302);
      return true;
  }
}
