import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CodePointLength, MaxCodePoints } from '@acme/platform-errors';
import type { Filters } from '@acme/rum';
import { ApplicationScoped, FILTERS_SCHEMA, IsFilters, IsStorableText, RuleReference } from './rule-fields.request.dto';

export class CreateRuleRequest extends ApplicationScoped {
  @ApiProperty({ minLength: 1, maxLength: 128 })
  @IsString()
  @CodePointLength(1, 128)
  @IsStorableText()
  readonly rule_name!: string;

  @ApiPropertyOptional({ maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxCodePoints(512)
  @IsStorableText()
  readonly description?: string;

  @ApiProperty(FILTERS_SCHEMA)
  @IsFilters()
  readonly filters!: Filters;
}

/** The rule to change, and any of the create fields (each optional, validated as on create). */
export class UpdateRuleRequest extends IntersectionType(
  RuleReference,
  PartialType(OmitType(CreateRuleRequest, ['application_id'] as const)),
) {}

export class RuleReferenceRequest extends RuleReference {}

/** Page size is capped at 100, not refused above it (as the spec has it for history). */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** Keeps `p * limit` a valid SQL offset; a larger page number is refused as InvalidParameter. */
export const MAX_PAGE = 10_000_000;

export class ListRulesRequest extends ApplicationScoped {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_PAGE)
  readonly p?: number;

  @ApiPropertyOptional({ minimum: 1, default: DEFAULT_PAGE_SIZE, description: 'capped at 100' })
  @IsOptional()
  @IsInt()
  @Min(1)
  readonly limit?: number;
}
