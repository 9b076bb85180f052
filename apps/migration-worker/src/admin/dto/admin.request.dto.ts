import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CodePointLength, MaxCodePoints } from '@acme/platform-errors';

export const MAX_IMPORT_DOCUMENTS = 10000;

export class CreateWorkspaceRequest {
  @ApiProperty() @IsString() @CodePointLength(1, 200) readonly name!: string;
}

export class CreateOrganizationRequest {
  @ApiProperty() @IsString() @CodePointLength(1, 256) readonly organizationId!: string;
}

export class ImportRecordRequest {
  @ApiProperty() @IsString() @CodePointLength(1, 256) readonly id!: string;
  @ApiProperty({ example: 'comment' }) @IsString() @CodePointLength(1, 64) readonly kind!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsObject() readonly body!: Record<string, unknown>;
}

export class ImportDocumentRequest {
  @ApiProperty() @IsString() @CodePointLength(1, 256) readonly id!: string;
  @ApiProperty() @IsString() @MaxCodePoints(1000) readonly title!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxCodePoints(1_000_000) readonly content?: string;

  @ApiPropertyOptional({ type: [ImportRecordRequest] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ImportRecordRequest)
  readonly records?: ImportRecordRequest[];
}

export class ImportDocumentsRequest {
  @ApiProperty({ type: [ImportDocumentRequest], description: '1 to 10,000 documents, imported in one transaction' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IMPORT_DOCUMENTS)
  @ValidateNested({ each: true })
  @Type(() => ImportDocumentRequest)
  readonly documents!: ImportDocumentRequest[];
}
