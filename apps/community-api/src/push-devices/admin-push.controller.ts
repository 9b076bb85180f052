import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { assertBundle, ProjectService, UserService } from '@acme/community';
import { PushErrors, PushSender } from '@acme/community-push';
import { AdminTokenGuard } from '@acme/platform-auth';
import { PushReportResponse } from './dto/push.response.dto';
import { SendPushRequest } from './dto/push.request.dto';

/** Operator route that sends a web push to every subscription of a user (the sender's entry point). */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/projects/:id/push-notifications')
export class AdminPushController {
  constructor(
    private readonly projects: ProjectService,
    private readonly users: UserService,
    private readonly sender: PushSender,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: PushReportResponse })
  async send(@Param('id') id: string, @Body() body: SendPushRequest): Promise<PushReportResponse> {
    const project = await this.projects.getById(id);
    assertBundle(project, 'push', PushErrors.bundleRequired);
    await this.users.getById(project.id, body.userId);
    return this.sender.sendToUser(project.id, body.userId, { title: body.title, body: body.body, data: body.data });
  }
}
