import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AcceptWhen } from '@acme/platform-errors';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsObject,
  IsString,
  Length,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import { acceptStartBody, MAX_DOCUMENT_IDS } from './start-migration.check';

export { MAX_DOCUMENT_IDS };

export class StartMigrationData {
  @ApiProperty({ description: 'Source organization' })
  @IsString()
  @Length(1, 256)
  readonly organizationId!: string;

  @ApiProperty({ description: 'Target organization (same workspace, different from the source)' })
  @IsString()
  @Length(1, 256)
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
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, 256, { each: true })
  readonly documentIds?: string[];
}

@AcceptWhen(acceptStartBody)
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
  @Length(1, 256)
  readonly organizationId!: string;

  @ApiProperty()
  @IsString()
  @Length(1, 256)
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
