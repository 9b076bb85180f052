import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documentation of the token request; the controller parses it itself to answer OAuth errors. */
export class TokenRequestBody {
  @ApiProperty({ enum: ['client_credentials'] })
  readonly grant_type!: string;

  @ApiPropertyOptional({ description: 'Client id (or use HTTP Basic authentication)' })
  readonly client_id?: string;

  @ApiPropertyOptional({ description: 'Client secret (or use HTTP Basic authentication, or a client assertion)' })
  readonly client_secret?: string;

  @ApiPropertyOptional({
    enum: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'],
    description: 'private_key_jwt (RFC 7523)',
  })
  readonly client_assertion_type?: string;

  @ApiPropertyOptional({
    description: 'A JWT signed with a registered key of the client: iss = sub = client_id, aud = the tenant, exp, jti',
  })
  readonly client_assertion?: string;

  @ApiProperty({ description: 'Must be the management API audience, `{PUBLIC_URL}/api/v2/`' })
  readonly audience!: string;

  @ApiPropertyOptional({ description: 'Space-separated subset of the scopes granted to the client for the audience' })
  readonly scope?: string;
}
