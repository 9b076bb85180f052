import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { CodePointLength } from '@acme/platform-errors';
import type { Access } from '@acme/rum';
import { APPLICATION_ID_PATTERN, IsStorableText } from '../../ingestion-rules/dto/rule-fields.request.dto';

export class CreateAccountRequest {
  @ApiProperty({ minLength: 1, maxLength: 128 })
  @IsString()
  @CodePointLength(1, 128)
  @IsStorableText()
  readonly name!: string;
}

export class CreateApplicationRequest extends CreateAccountRequest {
  @ApiProperty()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  readonly owner_account_id!: number;
}

export class SetAccessRequest {
  @ApiProperty({ enum: ['read', 'write'] })
  @IsIn(['read', 'write'])
  readonly access!: Access;
}

export class ApplicationParams {
  @IsString()
  @Matches(APPLICATION_ID_PATTERN)
  readonly id!: string;
}

export class AccessParams extends ApplicationParams {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  readonly accountId!: number;
}

export class AccountParams {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  readonly accountId!: number;
}

export class AppKeyParams extends AccountParams {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  readonly appKeyId!: number;
}

export class AuditLogQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  readonly limit?: number;

  @ApiPropertyOptional({ description: 'id of the last entry of the previous page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  readonly before?: number;
}
