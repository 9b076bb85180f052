import { ApiProperty } from '@nestjs/swagger';
import { HTTP_STATUS } from '../../http/error-presenter';

export class StartedMigration {
  @ApiProperty() readonly migrationId!: string;
  @ApiProperty({ enum: ['pending'] }) readonly status!: 'pending';
}

/** The spec's four states; a cancelled migration reads `failed` with its reason (docs/migration-worker.md#states-and-exactly-once-moves). */
export const WIRE_STATES = ['pending', 'in_progress', 'completed', 'failed'] as const;

export class MigrationStatus {
  @ApiProperty() readonly migrationId!: string;
  @ApiProperty({ enum: WIRE_STATES }) readonly status!: (typeof WIRE_STATES)[number];
  @ApiProperty() readonly organizationId!: string;
  @ApiProperty() readonly targetOrganizationId!: string;
  @ApiProperty() readonly totalDocuments!: number;
  @ApiProperty({ description: 'Documents moved so far (committed batches)' }) readonly migratedDocuments!: number;
  @ApiProperty({ format: 'date-time' }) readonly createdAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) readonly startedAt!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) readonly finishedAt!: string | null;
  @ApiProperty({ nullable: true, type: String }) readonly failureReason!: string | null;
}

class StartResult {
  @ApiProperty({ enum: ['success'] }) readonly status!: string;
  @ApiProperty() readonly message!: string;
  @ApiProperty({ type: StartedMigration }) readonly data!: StartedMigration;
}

class StatusResult {
  @ApiProperty({ enum: ['success'] }) readonly status!: string;
  @ApiProperty() readonly message!: string;
  @ApiProperty({ type: MigrationStatus }) readonly data!: MigrationStatus;
}

export class StartMigrationResponse {
  @ApiProperty({ type: StartResult }) readonly result!: StartResult;
}

export class MigrationStatusResponse {
  @ApiProperty({ type: StatusResult }) readonly result!: StatusResult;
}

class ErrorDetail {
  @ApiProperty() readonly message!: string;
  // Exactly the statuses the presenter can send (error-enum.spec.ts compares it with openapi.json).
  @ApiProperty({ enum: Object.keys(HTTP_STATUS) })
  readonly status!: string;
}

/** `{error: {message, status}}` (docs/migration-worker.md#errors). */
export class MigrationErrorResponse {
  @ApiProperty({ type: ErrorDetail }) readonly error!: ErrorDetail;
}
