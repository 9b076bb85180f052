import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Project, ProjectService } from '@acme/community';
import { Mailer, OutboxEntry } from '@acme/community-verification';
import { AdminTokenGuard } from '@acme/platform-auth';
import { CreatedProjectResponse, OutboxEntryResponse, ProjectResponse } from './dto/project.response.dto';
import { CreateProjectRequest, UpdateProjectRequest } from './dto/project.request.dto';

const present = (project: Project): ProjectResponse => ({
  id: project.id,
  name: project.name,
  bundles: project.bundles,
  redirectOrigins: project.redirectOrigins,
  createdAt: project.createdAt.toISOString(),
});

/** Operator API: provisions projects, their bundles and keys (ADMIN_TOKEN). */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/projects')
export class AdminProjectsController {
  constructor(
    private readonly projects: ProjectService,
    private readonly mailer: Mailer,
  ) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedProjectResponse })
  async create(@Body() body: CreateProjectRequest): Promise<CreatedProjectResponse> {
    const { project, serviceKey, masterKey } = await this.projects.create(body.name, body);
    return { ...present(project), serviceKey, masterKey };
  }

  @Get(':id')
  @ApiOkResponse({ type: ProjectResponse })
  async get(@Param('id') id: string): Promise<ProjectResponse> {
    return present(await this.projects.getById(id, { fresh: true }));
  }

  /** Mail sent while no SMTP transport is configured, newest first. */
  @Get(':id/outbox')
  @ApiOkResponse({ type: [OutboxEntryResponse] })
  async outbox(@Param('id') id: string): Promise<OutboxEntry[]> {
    const project = await this.projects.getById(id);
    return this.mailer.readOutbox(project.id);
  }

  /** Bundles and the redirect allow-list; a field left out stays as it is. */
  @Patch(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: ProjectResponse })
  async update(@Param('id') id: string, @Body() body: UpdateProjectRequest): Promise<ProjectResponse> {
    return present(await this.projects.update(id, body));
  }
}
