import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  MAX_POLICY_ID_LENGTH,
  MAX_SELECTOR_LENGTH,
  POLICY_CONSUMERS,
  POLICY_RESOURCES,
  PolicyConfiguration,
  PolicyConsumer,
  PolicyListItem,
  PolicyResource,
  RateLimitPolicy,
} from '@acme/policies';
import { CONFIGURATION_SCHEMA } from './rate-limit-policy.request.dto';

export class RateLimitPolicyResponse {
  @ApiProperty({ maxLength: MAX_POLICY_ID_LENGTH, format: 'rate-limit-policy-id' }) readonly id!: string;
  @ApiProperty({ enum: POLICY_RESOURCES }) readonly resource!: PolicyResource;
  @ApiProperty({ enum: POLICY_CONSUMERS }) readonly consumer!: PolicyConsumer;
  @ApiProperty({ maxLength: MAX_SELECTOR_LENGTH }) readonly consumer_selector!: string;
  @ApiProperty(CONFIGURATION_SCHEMA) readonly configuration!: PolicyConfiguration;
  @ApiPropertyOptional({ format: 'date-time' }) readonly created_at?: string;
  @ApiPropertyOptional({ format: 'date-time' }) readonly updated_at?: string;

  static from(policy: RateLimitPolicy): RateLimitPolicyResponse {
    return RateLimitPolicyResponse.fromListItem({
      ...policy,
      createdAt: policy.createdAt.toISOString(),
      updatedAt: policy.updatedAt.toISOString(),
    });
  }

  /** A list item's timestamps are already ISO 8601 (the same text `from` gives for the entity). */
  static fromListItem(item: PolicyListItem): RateLimitPolicyResponse {
    return {
      id: item.id,
      resource: item.resource,
      consumer: item.consumer,
      consumer_selector: item.consumerSelector,
      configuration: item.configuration,
      created_at: item.createdAt,
      updated_at: item.updatedAt,
    };
  }
}

export class RateLimitPolicyListResponse {
  @ApiProperty({ type: [RateLimitPolicyResponse] }) readonly rate_limit_policies!: RateLimitPolicyResponse[];
  @ApiPropertyOptional({ description: 'Cursor for `from`; absent on the last page' }) readonly next?: string;
}
