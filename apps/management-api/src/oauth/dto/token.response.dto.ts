import { ApiProperty } from '@nestjs/swagger';
import { PUBLISHED_OAUTH_ERRORS } from '../../http/error-presenter';

export class TokenResponseBody {
  @ApiProperty({ description: 'RS256 JWT with `kid`; claims iss, sub, aud, azp, scope, gty, iat, exp' })
  readonly access_token!: string;

  @ApiProperty({ enum: ['Bearer'] })
  readonly token_type!: 'Bearer';

  @ApiProperty({ example: 86400 })
  readonly expires_in!: number;

  @ApiProperty({ example: 'read:rate_limit_policies delete:rate_limit_policies' })
  readonly scope!: string;
}

export class OAuthErrorBody {
  // Every RFC 6749 `error` the presenter can answer (error-enum.spec.ts compares it with openapi.json).
  @ApiProperty({ enum: PUBLISHED_OAUTH_ERRORS })
  readonly error!: string;

  @ApiProperty()
  readonly error_description!: string;
}

class JsonWebKey {
  @ApiProperty({ example: 'RSA' }) readonly kty!: string;
  @ApiProperty() readonly n!: string;
  @ApiProperty({ example: 'AQAB' }) readonly e!: string;
  @ApiProperty() readonly kid!: string;
  @ApiProperty({ example: 'sig' }) readonly use!: string;
  @ApiProperty({ example: 'RS256' }) readonly alg!: string;
}

export class JwksBody {
  @ApiProperty({ type: [JsonWebKey] })
  readonly keys!: JsonWebKey[];
}

/** OpenID Connect Discovery 1.0 / RFC 8414 metadata, limited to what this server does (client credentials). */
export class OpenIdConfigurationBody {
  @ApiProperty() readonly issuer!: string;
  @ApiProperty() readonly jwks_uri!: string;
  @ApiProperty() readonly token_endpoint!: string;
  @ApiProperty({ type: [String] }) readonly grant_types_supported!: string[];
  @ApiProperty({ type: [String] }) readonly token_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) readonly response_types_supported!: string[];
  @ApiProperty({ type: [String] }) readonly id_token_signing_alg_values_supported!: string[];
  @ApiProperty({ type: [String] }) readonly subject_types_supported!: string[];
}

/** `issuer` ends with a slash (Auth0's form); endpoints hang off it. */
export function openIdConfiguration(issuer: string): OpenIdConfigurationBody {
  return {
    issuer,
    jwks_uri: `${issuer}.well-known/jwks.json`,
    token_endpoint: `${issuer}oauth/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt'],
    response_types_supported: ['token'],
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  };
}
