import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { MigrationService } from '@acme/migrations';
import { success } from '../http/envelope';
import { MigrationRefRequest, StartMigrationRequest } from './dto/migration.request.dto';
import { MigrationStatusResponse, StartMigrationResponse } from './dto/migration.response.dto';
import { ServiceAuthGuard, WorkspaceId } from './service-auth.guard';
import { WorkspaceRateLimitGuard } from './workspace-rate-limit.guard';

@ApiTags('migrations')
@ApiSecurity('apiKey')
@ApiSecurity('authToken')
@UseGuards(ServiceAuthGuard, WorkspaceRateLimitGuard)
@Controller('v2/organizations/documents/migrate')
export class MigrationsController {
  constructor(private readonly migrations: MigrationService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Start migrating documents to another organization (answers at once, status pending)' })
  @ApiOkResponse({ type: StartMigrationResponse })
  async start(@WorkspaceId() workspaceId: string, @Body() body: StartMigrationRequest) {
    return success('Migration started.', await this.migrations.start(workspaceId, body.data));
  }

  @Post('status')
  @HttpCode(200)
  @ApiOperation({ summary: 'Status and progress of a migration' })
  @ApiOkResponse({ type: MigrationStatusResponse })
  async status(@WorkspaceId() workspaceId: string, @Body() body: MigrationRefRequest) {
    return success('Migration status retrieved.', await this.migrations.status(workspaceId, body.data.organizationId, body.data.migrationId));
  }

  @Post('cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel an unfinished migration (beyond the spec); moved documents stay moved' })
  @ApiOkResponse({ type: MigrationStatusResponse })
  async cancel(@WorkspaceId() workspaceId: string, @Body() body: MigrationRefRequest) {
    return success('Migration cancelled.', await this.migrations.cancel(workspaceId, body.data.organizationId, body.data.migrationId));
  }
}
