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
import { OAuthSettings, SigningKeyStore, TokenExchange, TokenExchangeResult } from '@acme/oauth';
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
    private readonly exchange: TokenExchange,
    private readonly keys: SigningKeyStore,
    private readonly settings: OAuthSettings,
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
    const result = await this.exchange.exchange(parseTokenRequest(request), request.ip ?? 'unknown');
    return answer(result, response);
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
 * The HTTP edge of an exchange: the token with the bucket headers of a block policy, or a 302 to a redirect
 * policy's redirect_uri (then nothing is returned; the response is already sent). A 429 arrives as an OAuth
 * error, whose headers the exception filter builds from its decision.
 */
function answer(result: TokenExchangeResult, response: unknown): TokenResponseBody | undefined {
  if (result.outcome === 'redirect') {
    setResponseHeaders(response, { 'Cache-Control': 'no-store' });
    sendRedirect(response, result.location, 302);
    return undefined;
  }
  if (result.limit) setResponseHeaders(response, rateLimitHeaders(result.limit));
  return result.token;
}
