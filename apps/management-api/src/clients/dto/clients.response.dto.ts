import { ApiProperty, ApiPropertyOptional, getSchemaPath, PartialType } from '@nestjs/swagger';
import { Client, ClientGrant, GRANT_TYPES } from '@acme/oauth';
import { JwtConfiguration } from './client-settings.request.dto';
import { presentClientSettings } from './client-settings.response.dto';
import { FieldsQuery } from './clients.request.dto';

/** The response fields a FieldsQuery selects. */
export function selectFields<T extends object>(item: T, query: FieldsQuery): Partial<T> {
  if (!query.fields) return item;
  const named = new Set(query.fields.split(','));
  const keep = query.include_fields !== false;
  return Object.fromEntries(Object.entries(item).filter(([key]) => named.has(key) === keep)) as Partial<T>;
}

export class ClientResponse {
  @ApiProperty() readonly client_id!: string;
  @ApiProperty() readonly name!: string;
  @ApiProperty() readonly is_first_party!: boolean;
  @ApiProperty({ enum: GRANT_TYPES, isArray: true }) readonly grant_types!: string[];
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiPropertyOptional() readonly description?: string;
  @ApiPropertyOptional() readonly app_type?: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) readonly client_metadata!: Record<
    string,
    string
  >;
  @ApiPropertyOptional({ type: JwtConfiguration }) readonly jwt_configuration?: JwtConfiguration;
  @ApiProperty() readonly token_endpoint_auth_method!: string;

  static from(client: Client): ClientResponse {
    return {
      client_id: client.clientId,
      name: client.name,
      is_first_party: client.isFirstParty,
      grant_types: client.grantTypes,
      created_at: client.createdAt.toISOString(),
      ...presentClientSettings(client),
    };
  }
}

/** A client reduced to the properties named by `fields` (or all but them, with `include_fields=false`). */
export class ClientFieldsResponse extends PartialType(ClientResponse) {}

/** What GET answers: the whole client, or the fields asked for. */
export const CLIENT_OR_FIELDS = {
  anyOf: [{ $ref: getSchemaPath(ClientResponse) }, { $ref: getSchemaPath(ClientFieldsResponse) }],
};

export class CreatedClientResponse extends ClientResponse {
  @ApiProperty({ description: 'Shown once; only its keyed digest is stored' }) readonly client_secret!: string;
}

export class ClientPageResponse {
  @ApiProperty() readonly start!: number;
  @ApiProperty() readonly limit!: number;
  @ApiProperty() readonly length!: number;
  @ApiProperty() readonly total!: number;
  @ApiProperty({ type: 'array', items: CLIENT_OR_FIELDS }) readonly clients!: Partial<ClientResponse>[];
}

export class ClientGrantResponse {
  @ApiProperty() readonly id!: string;
  @ApiProperty() readonly client_id!: string;
  @ApiProperty() readonly audience!: string;
  @ApiProperty({ type: [String] }) readonly scope!: string[];

  static from(grant: ClientGrant): ClientGrantResponse {
    return { id: grant.id, client_id: grant.clientId, audience: grant.audience, scope: grant.scope };
  }
}

export class ClientGrantPageResponse {
  @ApiProperty() readonly start!: number;
  @ApiProperty() readonly limit!: number;
  @ApiProperty() readonly total!: number;
  @ApiProperty({ type: [ClientGrantResponse] }) readonly client_grants!: ClientGrantResponse[];
}
