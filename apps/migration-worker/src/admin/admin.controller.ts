import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { AdminTokenGuard } from '@acme/platform-auth';
import { BodyLimit, HeavyRoute, OpaqueBody } from '@acme/platform-http';
import { OrganizationStats, WorkspaceService } from '@acme/document-migration';
import { CreateOrganizationRequest, CreateWorkspaceRequest, ImportDocumentsRequest } from './dto/admin.request.dto';
import {
  CreatedOrganizationResponse,
  CreatedWorkspaceResponse,
  OrganizationStatsResponse,
} from './dto/admin.response.dto';

/** Operator API: provisions what the public API assumes exists (root README, Services and Configuration). */
@ApiTags('operator')
@ApiBearerAuth('operator')
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/workspaces')
export class AdminController {
  constructor(private readonly workspaces: WorkspaceService) {}

  @Post()
  @ApiOperation({ summary: 'Create a workspace; its apiKey and authToken are shown once and stored hashed' })
  @ApiCreatedResponse({ type: CreatedWorkspaceResponse })
  createWorkspace(@Body() body: CreateWorkspaceRequest) {
    return this.workspaces.createWorkspace(body.name);
  }

  @Post(':workspaceId/organizations')
  @ApiOperation({ summary: 'Create an organization in a workspace' })
  @ApiCreatedResponse({ type: CreatedOrganizationResponse })
  async createOrganization(@Param('workspaceId') workspaceId: string, @Body() body: CreateOrganizationRequest) {
    await this.workspaces.createOrganization(workspaceId, body.organizationId);
    return { workspaceId, organizationId: body.organizationId };
  }

  @Post(':workspaceId/organizations/:organizationId/documents')
  @HeavyRoute('document-import')
  @ApiTooManyRequestsResponse({
    description:
      'RESOURCE_EXHAUSTED: this instance already runs HEAVY_ROUTE_CONCURRENCY imports; retry after Retry-After',
  })
  // 10,000 documents with their records; read only once the operator token is accepted (docs/security.md, API4).
  @BodyLimit('64mb')
  // Its storable-text walk runs in chunks in the body's plain check (dto/import-documents.check.ts).
  @OpaqueBody()
  @ApiOperation({ summary: 'Import up to 10,000 documents with their records in one transaction' })
  @ApiCreatedResponse({ type: OrganizationStatsResponse, description: "The organization's counts after the import" })
  importDocuments(
    @Param('workspaceId') workspaceId: string,
    @Param('organizationId') organizationId: string,
    @Body() body: ImportDocumentsRequest,
  ): Promise<OrganizationStats> {
    return this.workspaces.importDocuments(workspaceId, organizationId, body.documents);
  }

  @Get(':workspaceId/organizations/:organizationId/stats')
  @HttpCode(200)
  @ApiOperation({ summary: 'Documents and records currently in an organization' })
  @ApiOkResponse({ type: OrganizationStatsResponse })
  stats(
    @Param('workspaceId') workspaceId: string,
    @Param('organizationId') organizationId: string,
  ): Promise<OrganizationStats> {
    return this.workspaces.stats(workspaceId, organizationId);
  }
}
