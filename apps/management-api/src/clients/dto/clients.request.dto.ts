import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { MaxCodePoints, MinCodePoints, UniqueItems } from '@acme/platform-errors';
import { GRANT_TYPES, GrantType, MANAGEMENT_SCOPES } from '@acme/oauth';
import { PageSize, ToBoolean, ToInt } from '../../http/validators';
import { ClientSettingsFields } from './client-settings.request.dto';

const CIMD_CLIENT_ID = /^https:\/\/[^\s/?#@]+(?:\/[^\s#]*)?$/;

export class CreateClientRequest extends ClientSettingsFields {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @MinCodePoints(1)
  @MaxCodePoints(255)
  readonly name!: string;

  @ApiPropertyOptional({
    description: 'Only for a client identified by its metadata document: an https:// URI. Generated otherwise.',
    maxLength: 245,
  })
  @IsString()
  @MaxCodePoints(245)
  @Matches(CIMD_CLIENT_ID, { message: 'client_id must be an https:// URI' })
  @IsOptional()
  readonly client_id?: string;

  @ApiPropertyOptional({ default: true, description: 'false: a third-party client' })
  @IsBoolean()
  @IsOptional()
  readonly is_first_party?: boolean;

  @ApiPropertyOptional({ enum: GRANT_TYPES, isArray: true, default: ['client_credentials'] })
  @IsArray()
  @ArrayMaxSize(GRANT_TYPES.length)
  @UniqueItems()
  @IsIn(GRANT_TYPES, { each: true })
  @IsOptional()
  readonly grant_types?: GrantType[];
}

/** PATCH /clients/{id}: any field of a created client but its id; only the fields sent change. */
export class UpdateClientRequest extends PartialType(OmitType(CreateClientRequest, ['client_id'] as const)) {}

/** Auth0's field selection on client reads: `fields=a,b` with `include_fields` true (default) or false. */
export class FieldsQuery {
  @ApiPropertyOptional({
    description: 'Comma-separated field names to include (or exclude, with include_fields=false)',
    maxLength: 1000,
  })
  @IsString()
  @MaxCodePoints(1000)
  @Matches(/^[a-z_]+(,[a-z_]+)*$/, { message: 'fields must be comma-separated field names' })
  @IsOptional()
  readonly fields?: string;

  @ApiPropertyOptional({ type: 'boolean', default: true })
  @ToBoolean()
  @IsBoolean()
  @IsOptional()
  readonly include_fields?: boolean;
}

export class ClientIdParam {
  @ApiProperty({ maxLength: 245 })
  @IsString()
  @MaxCodePoints(245)
  readonly id!: string;
}

export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0 })
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(100000)
  @IsOptional()
  readonly page?: number;

  @PageSize()
  readonly per_page?: number;

  @ApiPropertyOptional({ type: 'boolean', default: false })
  @ToBoolean()
  @IsBoolean()
  @IsOptional()
  readonly include_totals?: boolean;
}

/** GET /clients: Auth0's paging and field selection. */
export class ClientListQuery extends IntersectionType(PageQuery, FieldsQuery) {}

export class CreateClientGrantRequest {
  @ApiProperty({ maxLength: 245 })
  @IsString()
  @MinCodePoints(1)
  @MaxCodePoints(245)
  readonly client_id!: string;

  @ApiProperty({ description: 'The management API audience, `{PUBLIC_URL}/api/v2/`', maxLength: 600 })
  @IsString()
  @MaxCodePoints(600)
  readonly audience!: string;

  @ApiProperty({ enum: MANAGEMENT_SCOPES, isArray: true })
  @IsArray()
  @ArrayMinSize(0)
  @ArrayMaxSize(MANAGEMENT_SCOPES.length)
  @IsIn(MANAGEMENT_SCOPES, { each: true })
  readonly scope!: string[];
}

export class UpdateClientGrantRequest {
  @ApiProperty({ enum: MANAGEMENT_SCOPES, isArray: true })
  @IsArray()
  @ArrayMaxSize(MANAGEMENT_SCOPES.length)
  @IsIn(MANAGEMENT_SCOPES, { each: true })
  readonly scope!: string[];
}

export class ClientGrantIdParam {
  @ApiProperty({ maxLength: 32 })
  @IsString()
  @MaxCodePoints(32)
  readonly id!: string;
}

export class ClientGrantQuery extends PageQuery {
  @ApiPropertyOptional({ maxLength: 245 })
  @IsString()
  @MaxCodePoints(245)
  @IsOptional()
  readonly client_id?: string;

  @ApiPropertyOptional({ maxLength: 600 })
  @IsString()
  @MaxCodePoints(600)
  @IsOptional()
  readonly audience?: string;
}
