import { ApiProperty } from '@nestjs/swagger';
import { BUNDLES } from '@acme/community';
import { REDIRECT_ORIGINS_DOC } from './project.request.dto';

export class ProjectResponse {
  @ApiProperty() readonly id: string;
  @ApiProperty() readonly name: string;
  @ApiProperty({ enum: BUNDLES, isArray: true }) readonly bundles: string[];
  @ApiProperty({ ...REDIRECT_ORIGINS_DOC, required: true }) readonly redirectOrigins: string[];
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
