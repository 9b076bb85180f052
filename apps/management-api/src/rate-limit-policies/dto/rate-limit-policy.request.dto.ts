import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
import { MaxCodePoints } from '@acme/platform-errors';
import {
  MAX_LIMIT,
  MAX_POLICY_ID_LENGTH,
  MAX_SELECTOR_LENGTH,
  POLICY_CONSUMERS,
  POLICY_RESOURCES,
  PolicyConfiguration,
  PolicyConsumer,
  PolicyResource,
} from '@acme/policies';
import { IsConsumerSelector, IsPolicyConfiguration, PageSize } from '../../http/validators';

export class AllowConfiguration {
  @ApiProperty({ enum: ['allow'] }) readonly action!: 'allow';
}

export class BlockOrLogConfiguration {
  @ApiProperty({ enum: ['block', 'log'] }) readonly action!: 'block' | 'log';
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_LIMIT, description: 'Requests per second' })
  readonly limit!: number;
}

export class RedirectConfiguration {
  @ApiProperty({ enum: ['redirect'] }) readonly action!: 'redirect';
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_LIMIT, description: 'Requests per second' })
  readonly limit!: number;
  @ApiProperty({ format: 'strict-https-uri', example: 'https://example.com/slow-down' }) readonly redirect_uri!: string;
}

export const CONFIGURATION_SCHEMA = {
  description: 'Exactly one of three shapes, selected by `action`; no other property is allowed.',
  oneOf: [AllowConfiguration, BlockOrLogConfiguration, RedirectConfiguration].map((model) => ({
    $ref: getSchemaPath(model),
  })),
};

const SELECTOR_DESCRIPTION =
  'client_id:<client_id> | client_id:<https URI> | cimd_clients | third_party_clients | default';

export class ListRateLimitPoliciesQuery {
  @ApiPropertyOptional({ enum: POLICY_RESOURCES })
  @IsIn(POLICY_RESOURCES)
  @IsOptional()
  readonly resource?: PolicyResource;

  @ApiPropertyOptional({ enum: POLICY_CONSUMERS })
  @IsIn(POLICY_CONSUMERS)
  @IsOptional()
  readonly consumer?: PolicyConsumer;

  @ApiPropertyOptional({ maxLength: MAX_SELECTOR_LENGTH, description: SELECTOR_DESCRIPTION })
  @IsConsumerSelector()
  @IsOptional()
  readonly consumer_selector?: string;

  @PageSize()
  readonly take?: number;

  @ApiPropertyOptional({ maxLength: 1000, description: 'Cursor from `next` of the previous page' })
  @IsString()
  @MaxCodePoints(1000)
  @IsOptional()
  readonly from?: string;
}

export class PolicyIdParam {
  @ApiProperty({
    maxLength: MAX_POLICY_ID_LENGTH,
    format: 'rate-limit-policy-id',
    example: 'rlp_V1StGXR8_Z5jdHi6B-myT',
  })
  @IsString()
  @MaxCodePoints(MAX_POLICY_ID_LENGTH)
  readonly id!: string;
}

export class CreateRateLimitPolicyRequest {
  @ApiProperty({ enum: POLICY_RESOURCES })
  @IsIn(POLICY_RESOURCES)
  readonly resource!: PolicyResource;

  @ApiProperty({ enum: POLICY_CONSUMERS })
  @IsIn(POLICY_CONSUMERS)
  readonly consumer!: PolicyConsumer;

  @ApiProperty({ maxLength: MAX_SELECTOR_LENGTH, description: SELECTOR_DESCRIPTION })
  @IsConsumerSelector()
  readonly consumer_selector!: string;

  @ApiProperty(CONFIGURATION_SCHEMA)
  @IsDefined()
  @IsPolicyConfiguration()
  readonly configuration!: PolicyConfiguration;
}

export class UpdateRateLimitPolicyRequest {
  @ApiProperty(CONFIGURATION_SCHEMA)
  @IsDefined()
  @IsPolicyConfiguration()
  readonly configuration!: PolicyConfiguration;
}
