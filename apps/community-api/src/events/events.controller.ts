import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { rm } from 'node:fs/promises';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiCreatedResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Caller, Project } from '@acme/community';
import {
  CreateEventService,
  EventPage,
  EventErrors,
  EventQueryService,
  EventView,
  GuestListService,
  GuestPage,
  RsvpService,
} from '@acme/events';
import { BodyLimit, rawRequest } from '@acme/platform-http';
import { Authenticated, CommunityRequest, CurrentCaller, CurrentProject } from '../auth';
import { CommunityEnv } from '../config/env';
import { COMMUNITY_API_PREFIX } from '../http/api-prefix';
import { toEventActor } from './event-actor';
import { IMAGE_OPTION_MODELS } from './dto/image-options.request.dto';
import { EventPageResponse, GuestPageResponse, EventResponse, ImageViewResponse } from './dto/event.response.dto';
import { CreateEventRequest, toCreateEventRequest } from './dto/create-event.request.dto';
import { GuestListRequest, toGuestListQuery } from './dto/guest-list.request.dto';
import { ListEventsRequest, toListEventsQuery } from './dto/list-events.request.dto';
import { RsvpRequest, toSetRsvpInput, toWithdrawRsvpInput, WithdrawRsvpRequest } from './dto/rsvp.request.dto';
import { isMultipart, stageMultipart } from './multipart-upload';

const ANY_CALLER = ['user', 'service', 'master'] as const;

/** Events, their images and RSVPs (docs/community-api.md#events). Rules live in @acme/events. */
@ApiTags('events')
@ApiExtraModels(ImageViewResponse, ...IMAGE_OPTION_MODELS)
@Controller(`${COMMUNITY_API_PREFIX}/events`)
export class EventsController {
  constructor(
    private readonly creator: CreateEventService,
    private readonly rsvps: RsvpService,
    private readonly queries: EventQueryService,
    private readonly guests: GuestListService,
    private readonly env: CommunityEnv,
  ) {}

  @Post()
  @Authenticated([...ANY_CALLER])
  // Event metadata may be 1 MB on its own (docs/community-api.md#events); read once the caller is authenticated.
  @BodyLimit('2mb')
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: CreateEventRequest })
  @ApiCreatedResponse({ type: EventResponse })
  async create(
    @Req() request: CommunityRequest,
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
  ): Promise<EventView> {
    const actor = toEventActor(project, caller);
    if (!isMultipart(request))
      return this.creator.create(actor, {
        ...(await toCreateEventRequest(request.body, 'json')),
        uploads: [],
        workDir: null,
      });
    const staged = await stageMultipart(
      rawRequest(request as CommunityRequest & { raw?: IncomingMessage }) as unknown as IncomingMessage,
      this.env.UPLOAD_TMP_DIR ?? tmpdir(),
    );
    try {
      // A structural multipart problem found while streaming is reported where the body is checked.
      if (staged.malformed) throw EventErrors.invalidInput(staged.malformed);
      return await this.creator.create(actor, {
        ...(await toCreateEventRequest(staged.fields, 'multipart')),
        uploads: staged.uploads,
        workDir: staged.workDir,
      });
    } finally {
      await rm(staged.workDir, { recursive: true, force: true });
    }
  }

  @Get()
  @Authenticated([...ANY_CALLER])
  @ApiOkResponse({ type: EventPageResponse })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-100, default 20' })
  @ApiQuery({ name: 'from', required: false, description: 'startTime >= from (ISO 8601)' })
  @ApiQuery({ name: 'to', required: false, description: 'startTime < to (ISO 8601)' })
  @ApiQuery({ name: 'type', required: false, enum: ['online', 'physical', 'hybrid'] })
  @ApiQuery({ name: 'visibility', required: false, enum: ['public', 'members', 'invite'] })
  @ApiQuery({ name: 'status', required: false, enum: ['active', 'cancelled'] })
  @ApiQuery({ name: 'spaceId', required: false })
  @ApiQuery({ name: 'userId', required: false, description: 'creator' })
  @ApiQuery({ name: 'hostId', required: false })
  @ApiQuery({ name: 'latitude', required: false, type: Number })
  @ApiQuery({ name: 'longitude', required: false, type: Number })
  @ApiQuery({ name: 'radius', required: false, type: Number, description: 'metres; with latitude and longitude' })
  @ApiQuery({ name: 'sortBy', required: false, enum: ['startTime', 'distance'] })
  list(
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
    @Query() query: ListEventsRequest,
  ): Promise<EventPage> {
    return this.queries.list(toEventActor(project, caller), toListEventsQuery(query));
  }

  @Get(':eventId')
  @Authenticated([...ANY_CALLER])
  @ApiOkResponse({ type: EventResponse })
  get(
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
    @Param('eventId') eventId: string,
  ): Promise<EventView> {
    return this.queries.get(toEventActor(project, caller), eventId);
  }

  @Get(':eventId/rsvps')
  @Authenticated([...ANY_CALLER])
  @ApiOkResponse({ type: GuestPageResponse })
  @ApiQuery({ name: 'status', required: false, enum: ['going', 'maybe', 'not_going'] })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: '1-100, default 50' })
  guestList(
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
    @Param('eventId') eventId: string,
    @Query() query: GuestListRequest,
  ): Promise<GuestPage> {
    return this.guests.list(toEventActor(project, caller), eventId, toGuestListQuery(query));
  }

  @Post(':eventId/rsvp')
  @HttpCode(200)
  @Authenticated([...ANY_CALLER])
  @ApiBody({ type: RsvpRequest })
  @ApiOkResponse({ type: EventResponse })
  rsvp(
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
    @Param('eventId') eventId: string,
    @Body() body: RsvpRequest,
  ): Promise<EventView> {
    return this.rsvps.set(toEventActor(project, caller), eventId, toSetRsvpInput(body));
  }

  @Delete(':eventId/rsvp')
  @HttpCode(200)
  @Authenticated([...ANY_CALLER])
  @ApiBody({ type: WithdrawRsvpRequest, required: false })
  @ApiOkResponse({ type: EventResponse })
  withdraw(
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
    @Param('eventId') eventId: string,
    @Body() body: WithdrawRsvpRequest,
  ): Promise<EventView> {
    return this.rsvps.withdraw(toEventActor(project, caller), eventId, toWithdrawRsvpInput(body));
  }

  @Post(':eventId/cancel')
  @HttpCode(200)
  @Authenticated([...ANY_CALLER])
  @ApiOkResponse({ type: EventResponse })
  cancel(
    @CurrentProject() project: Project,
    @CurrentCaller() caller: Caller,
    @Param('eventId') eventId: string,
  ): Promise<EventView> {
    return this.queries.cancel(toEventActor(project, caller), eventId);
  }
}
