import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { BUNDLES } from '@acme/community';

const BUNDLE_NAMES = ['core', ...BUNDLES];

export class CreateProjectRequest {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  readonly name: string;

  @ApiProperty({ enum: BUNDLE_NAMES, isArray: true, required: false, description: '`core` is always on' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(BUNDLE_NAMES, { each: true })
  readonly bundles?: string[];
}

export class UpdateProjectRequest {
  @ApiProperty({ enum: BUNDLE_NAMES, isArray: true })
  @IsArray()
  @ArrayMaxSize(10)
  @IsIn(BUNDLE_NAMES, { each: true })
  readonly bundles: string[];
}

export class ProjectResponse {
  @ApiProperty() readonly id: string;
  @ApiProperty() readonly name: string;
  @ApiProperty({ enum: BUNDLES, isArray: true }) readonly bundles: string[];
  @ApiProperty() readonly createdAt: string;
}

export class CreatedProjectResponse extends ProjectResponse {
  @ApiProperty({ description: 'Shown once; `sk_` prefix' }) readonly serviceKey: string;
  @ApiProperty({ description: 'Shown once; `mk_` prefix' }) readonly masterKey: string;
}

/** Mail sent while no SMTP transport is configured (the development outbox). */
export class OutboxEntryResponse {
  @ApiProperty() readonly to: string;
  @ApiProperty() readonly subject: string;
  @ApiProperty() readonly text: string;
  @ApiProperty() readonly html: string;
  @ApiProperty({ format: 'date-time' }) readonly sentAt: string;
}
