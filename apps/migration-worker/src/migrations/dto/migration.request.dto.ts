import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsObject,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CodePointLength, UniqueItems } from '@acme/platform-errors';

export const MAX_DOCUMENT_IDS = 10000;

export class StartMigrationData {
  @ApiProperty({ description: 'Source organization' })
  @IsString()
  @CodePointLength(1, 256)
  readonly organizationId!: string;

  @ApiProperty({ description: 'Target organization (same workspace, different from the source)' })
  @IsString()
  @CodePointLength(1, 256)
  readonly targetOrganizationId!: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Documents to move (1 to 10,000); absent: every document of the source',
  })
  // Absent means the whole organization; an explicit null is a malformed list, not "everything".
  @ValidateIf((data: StartMigrationData) => data.documentIds !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DOCUMENT_IDS)
  @UniqueItems()
  @IsString({ each: true })
  @CodePointLength(1, 256, { each: true })
  readonly documentIds?: string[];
}

export class StartMigrationRequest {
  @ApiProperty({ type: StartMigrationData })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StartMigrationData)
  readonly data!: StartMigrationData;
}

export class MigrationRefData {
  @ApiProperty({ description: "The migration's source or target organization" })
  @IsString()
  @CodePointLength(1, 256)
  readonly organizationId!: string;

  @ApiProperty()
  @IsString()
  @CodePointLength(1, 256)
  readonly migrationId!: string;
}

export class MigrationRefRequest {
  @ApiProperty({ type: MigrationRefData })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => MigrationRefData)
  readonly data!: MigrationRefData;
}
