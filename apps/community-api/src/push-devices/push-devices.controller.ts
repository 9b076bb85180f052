import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { assertBundle, Project } from '@acme/community';
import {
  DeviceRegistration,
  parseDeviceRegistration,
  PushDeviceService,
  PushErrors,
  PushSettings,
  VapidKeyStore,
} from '@acme/community-push';
import { Authenticated, CurrentProject, CurrentUserId, ProjectRoute } from '../auth';
import { COMMUNITY_API_PREFIX } from '../http/api-prefix';
import { RegisterPushDeviceDoc } from './dto/push.request.dto';
import { VapidPublicKeyResponse } from './dto/push.response.dto';

/** Push device registration plus deregistration and the VAPID key (docs/community-api.md#push-devices). */
@ApiTags('push-notifications')
@Controller(`${COMMUNITY_API_PREFIX}/push-notifications`)
export class PushDevicesController {
  constructor(
    private readonly devices: PushDeviceService,
    private readonly vapid: VapidKeyStore,
    private readonly settings: PushSettings,
  ) {}

  /** 200 with an empty body. The body is typed `unknown` so the domain parser, not the global pipe, answers. */
  @Post('devices')
  @HttpCode(200)
  @ApiBody({ type: RegisterPushDeviceDoc })
  @ApiOkResponse({ description: 'Registered (or refreshed); the body is empty' })
  @Authenticated(['user'], { rejectAs: PushErrors.unauthorized })
  async register(
    @CurrentProject() project: Project,
    @CurrentUserId() userId: string,
    @Body() body: unknown,
  ): Promise<void> {
    await this.devices.register(project.id, userId, this.registrationIn(project, body));
  }

  @Delete('devices')
  @HttpCode(200)
  @ApiBody({ type: RegisterPushDeviceDoc })
  @ApiOkResponse({ description: 'Removed, or was not registered; the body is empty' })
  @Authenticated(['user'], { rejectAs: PushErrors.unauthorized })
  async deregister(
    @CurrentProject() project: Project,
    @CurrentUserId() userId: string,
    @Body() body: unknown,
  ): Promise<void> {
    await this.devices.deregister(project.id, userId, this.registrationIn(project, body));
  }

  @Get('vapid-public-key')
  @ProjectRoute()
  @ApiOkResponse({ type: VapidPublicKeyResponse })
  async vapidPublicKey(@CurrentProject() project: Project): Promise<VapidPublicKeyResponse> {
    assertBundle(project, 'push', PushErrors.bundleRequired);
    return { publicKey: (await this.vapid.get()).publicKey };
  }

  /** Both routes: the push bundle must be on, then the body is read as the domain's registration. */
  private registrationIn(project: Project, body: unknown): DeviceRegistration {
    assertBundle(project, 'push', PushErrors.bundleRequired);
    return parseDeviceRegistration(body, this.settings);
  }
}
