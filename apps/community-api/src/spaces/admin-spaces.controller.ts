import { Body, Controller, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ProjectService, UserService } from '@acme/community';
import { SpaceService } from '@acme/events';
import { AdminTokenGuard } from '@acme/platform-auth';
import { CreatedSpaceResponse, MembershipResponse } from './dto/space.response.dto';
import { CreateSpaceRequest, SetMembershipRequest } from './dto/space.request.dto';

/** Operator API for spaces (root README, Services): create a space, set a user's membership status. */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/projects/:id/spaces')
export class AdminSpacesController {
  constructor(
    private readonly projects: ProjectService,
    private readonly users: UserService,
    private readonly spaces: SpaceService,
  ) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedSpaceResponse })
  async create(@Param('id') id: string, @Body() body: CreateSpaceRequest): Promise<CreatedSpaceResponse> {
    const project = await this.projects.getById(id, { fresh: true });
    const space = await this.spaces.create(project.id, body.name);
    return { id: space.id, projectId: space.projectId, name: space.name };
  }

  @Put(':spaceId/members/:userId')
  @ApiOkResponse({ type: MembershipResponse })
  async setMember(
    @Param('id') id: string,
    @Param('spaceId') spaceId: string,
    @Param('userId') userId: string,
    @Body() body: SetMembershipRequest,
  ): Promise<MembershipResponse> {
    const project = await this.projects.getById(id, { fresh: true });
    await this.users.getById(project.id, userId);
    const member = await this.spaces.setMembership(project.id, spaceId, userId, body.status);
    return { spaceId: member.spaceId, userId: member.userId, status: member.status };
  }
}
