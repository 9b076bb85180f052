import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { MigrationService } from '@acme/document-migration';
import { BodyLimit, Enveloped, HeavyRoute, RateLimit, RateLimitGuard } from '@acme/platform-http';
import { presentMigrationStatus } from './migration-status.presenter';
import { MigrationRefRequest, StartMigrationRequest } from './dto/migration.request.dto';
import { MigrationErrorResponse, MigrationStatusResponse, StartMigrationResponse } from './dto/migration.response.dto';
import { ServiceAuthGuard, WorkspaceId } from './service-auth.guard';

@ApiTags('migrations')
@ApiSecurity({ apiKey: [], authToken: [] })
@ApiBadRequestResponse({ type: MigrationErrorResponse, description: 'INVALID_ARGUMENT' })
@ApiUnauthorizedResponse({ type: MigrationErrorResponse, description: 'UNAUTHENTICATED' })
@ApiNotFoundResponse({ type: MigrationErrorResponse, description: 'NOT_FOUND' })
@ApiTooManyRequestsResponse({ type: MigrationErrorResponse, description: 'RESOURCE_EXHAUSTED' })
@Enveloped()
@UseGuards(ServiceAuthGuard, RateLimitGuard)
@RateLimit('workspace')
@Controller('v2/organizations/documents/migrate')
export class MigrationsController {
  constructor(private readonly migrations: MigrationService) {}

  @Post()
  // Past HEAVY_ROUTE_CONCURRENCY starts in flight: 429 RESOURCE_EXHAUSTED with Retry-After (declared on the class).
  @HeavyRoute('migration-start')
  @HttpCode(200)
  // 10,000 ids of up to 256 characters; read only once the API key is accepted (docs/security.md, API4).
  @BodyLimit('16mb')
  @ApiOperation({ summary: 'Start migrating documents to another organization (answers at once, status pending)' })
  @ApiOkResponse({ type: StartMigrationResponse })
  @ApiResponse({
    status: 409,
    type: MigrationErrorResponse,
    description: 'FAILED_PRECONDITION: an unfinished migration holds some of the documents',
  })
  async start(@WorkspaceId() workspaceId: string, @Body() body: StartMigrationRequest) {
    return { message: 'Migration started.', data: await this.migrations.start(workspaceId, body.data) };
  }

  @Post('status')
  @HttpCode(200)
  @ApiOperation({ summary: 'Status and progress of a migration' })
  @ApiOkResponse({ type: MigrationStatusResponse })
  async status(@WorkspaceId() workspaceId: string, @Body() body: MigrationRefRequest) {
    return presentMigrationStatus(
      'Migration status retrieved.',
      await this.migrations.status(workspaceId, body.data.organizationId, body.data.migrationId),
    );
  }

  @Post('cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel an unfinished migration (beyond the spec); moved documents stay moved' })
  @ApiResponse({ status: 409, type: MigrationErrorResponse, description: 'FAILED_PRECONDITION: already finished' })
  @ApiOkResponse({ type: MigrationStatusResponse })
  async cancel(@WorkspaceId() workspaceId: string, @Body() body: MigrationRefRequest) {
    return presentMigrationStatus(
      'Migration cancelled.',
      await this.migrations.cancel(workspaceId, body.data.organizationId, body.data.migrationId),
    );
  }
}
