import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { MaxCodePoints } from '@acme/platform-errors';

/** Auth0's application types and client authentication methods a machine-to-machine setup sends. */
export const APP_TYPES = ['non_interactive', 'spa', 'native', 'regular_web'] as const;

export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_post',
  'client_secret_basic',
  'private_key_jwt',
  'none',
] as const;

const JWT_ALGORITHMS = ['RS256', 'HS256', 'PS256'] as const;

const METADATA_KEY = /^[A-Za-z0-9_-]{1,255}$/;

/** Auth0's limits on `client_metadata`: at most 10 properties, string values of at most 255 characters. */
function IsClientMetadata(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isClientMetadata',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= 10 &&
          Object.entries(value).every(
            ([key, inner]) => METADATA_KEY.test(key) && typeof inner === 'string' && inner.length <= 255,
          ),
        defaultMessage: () =>
          'client_metadata must be an object of at most 10 properties (names of letters, digits, _ or -) with string values of at most 255 characters',
      },
    },
    options,
  );
}

export class JwtConfiguration {
  @ApiPropertyOptional({ enum: JWT_ALGORITHMS })
  @IsIn(JWT_ALGORITHMS)
  @IsOptional()
  readonly alg?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 2592000 })
  @IsInt()
  @Min(1)
  @Max(2592000)
  @IsOptional()
  readonly lifetime_in_seconds?: number;

  @ApiPropertyOptional()
  @IsBoolean()
  @IsOptional()
  readonly secret_encoded?: boolean;
}

/** The settings fields of a client, on create and on PATCH (stored and returned as given). */
export class ClientSettingsFields {
  @ApiPropertyOptional({ maxLength: 140 })
  @IsString()
  @MaxCodePoints(140)
  @IsOptional()
  readonly description?: string;

  @ApiPropertyOptional({ enum: APP_TYPES })
  @IsIn(APP_TYPES)
  @IsOptional()
  readonly app_type?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string', maxLength: 255 }, maxProperties: 10 })
  @IsClientMetadata()
  @IsOptional()
  readonly client_metadata?: Record<string, string>;

  @ApiPropertyOptional({ type: JwtConfiguration })
  @IsObject()
  @ValidateNested()
  @Type(() => JwtConfiguration)
  @IsOptional()
  readonly jwt_configuration?: JwtConfiguration;

  @ApiPropertyOptional({ enum: TOKEN_ENDPOINT_AUTH_METHODS, default: 'client_secret_post' })
  @IsIn(TOKEN_ENDPOINT_AUTH_METHODS)
  @IsOptional()
  readonly token_endpoint_auth_method?: string;
}

/** Request fields → the service's command (absent stays absent, so PATCH changes only what it names). */
export function clientSettings(body: ClientSettingsFields) {
  return {
    description: body.description,
    appType: body.app_type,
    clientMetadata: body.client_metadata,
    jwtConfiguration: body.jwt_configuration === undefined ? undefined : { ...body.jwt_configuration },
    tokenEndpointAuthMethod: body.token_endpoint_auth_method,
  };
}
