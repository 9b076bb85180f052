import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Project, ProjectService } from '@acme/community';
import { Mailer, OutboxEntry } from '@acme/community-verification';
import { AdminTokenGuard } from '@acme/platform-auth';
import { CreatedProjectResponse, CreateProjectRequest, ProjectResponse, UpdateProjectRequest } from './dto/project.dto';

const present = (project: Project): ProjectResponse => ({
  id: project.id,
  name: project.name,
  bundles: project.bundles,
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
  async create(@Body() body: CreateProjectRequest): Promise<CreatedProjectResponse> {
    const { project, serviceKey, masterKey } = await this.projects.create(body.name, body.bundles ?? []);
    return { ...present(project), serviceKey, masterKey };
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<ProjectResponse> {
    return present(await this.projects.getById(id, { fresh: true }));
  }

  /** Mail sent while no SMTP transport is configured, newest first. */
  @Get(':id/outbox')
  async outbox(@Param('id') id: string): Promise<OutboxEntry[]> {
    const project = await this.projects.getById(id);
    return this.mailer.readOutbox(project.id);
  }

  @Patch(':id')
  @HttpCode(200)
  async update(@Param('id') id: string, @Body() body: UpdateProjectRequest): Promise<ProjectResponse> {
    return present(await this.projects.updateBundles(id, body.bundles));
  }
}
