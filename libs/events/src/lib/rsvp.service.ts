import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid, withTransaction } from '@acme/platform-persistence';
import { EventActor } from './actor';
import { viewerOf } from './event-query.service';
import { RsvpStatus } from './event-rsvp.entity';
import { EventRecord } from './event.entity';
import { EventView, toEventView } from './event-view';
import { EventErrors } from './events.errors';
import { EventsSettings } from './events.settings';
import { EventFileRepository } from './repositories/event-file.repository';
import { EventRepository } from './repositories/event.repository';
import { RsvpRepository } from './repositories/rsvp.repository';
import { SpaceService } from './space.service';

/** POST .../events/:id/rsvp after the app validated the body; `userId` only with a service or master key. */
export interface SetRsvpInput {
  status: RsvpStatus;
  userId?: string;
}

/** DELETE .../events/:id/rsvp after the app validated the body. */
export interface WithdrawRsvpInput {
  userId?: string;
}

/**
 * RSVPs. Each change locks its event row, so concurrent RSVPs to one event apply one at a time: the capacity
 * check and the counters stay exact (and a CHECK constraint backs the capacity up).
 */
@Injectable()
export class RsvpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventRepository,
    private readonly rsvps: RsvpRepository,
    private readonly files: EventFileRepository,
    private readonly settings: EventsSettings,
    private readonly spaces: SpaceService,
  ) {}

  async set(actor: EventActor, eventId: string, { status, userId: requested }: SetRsvpInput): Promise<EventView> {
    const userId = await this.resolveUser(actor, requested);
    return this.change(actor, eventId, userId, async (manager, event, previous) => {
      if (status === 'maybe' && !event.allowMaybe) throw EventErrors.maybeDisabled();
      if (status === 'going' && previous !== 'going' && event.capacity !== null && event.goingCount >= event.capacity) {
        throw EventErrors.full();
      }
      if (previous === status) return;
      await this.rsvps.upsert(manager, actor.projectId, event.id, userId, status);
      await this.events.shiftRsvpCount(manager, actor.projectId, event.id, previous, status);
    });
  }

  /** Withdrawing is idempotent: no RSVP, nothing to do, same answer. */
  async withdraw(actor: EventActor, eventId: string, { userId: requested }: WithdrawRsvpInput): Promise<EventView> {
    const userId = await this.resolveUser(actor, requested);
    return this.change(actor, eventId, userId, async (manager, event, previous) => {
      if (previous === null) return;
      await this.rsvps.delete(manager, actor.projectId, event.id, userId);
      await this.events.shiftRsvpCount(manager, actor.projectId, event.id, previous, null);
    });
  }

  private async resolveUser(actor: EventActor, userId: string | undefined): Promise<string> {
    if (actor.kind === 'user') {
      if (userId !== undefined && userId !== actor.userId)
        throw EventErrors.invalidInput('userId is only accepted with a service or master key', 'userId');
      return actor.userId as string;
    }
    if (!userId) throw EventErrors.invalidInput('userId is required with a service or master key', 'userId');
    if (!(await this.settings.users.userExists(actor.projectId, userId)))
      throw EventErrors.invalidInput('userId does not name a user of this project', 'userId');
    return userId;
  }

  private async change(
    actor: EventActor,
    eventId: string,
    userId: string,
    apply: (manager: EntityManager, event: EventRecord, previous: RsvpStatus | null) => Promise<void>,
  ): Promise<EventView> {
    if (!isUuid(eventId)) throw EventErrors.notFound();
    return withTransaction(this.dataSource, async (manager) => {
      // The caller's visibility first, as GET applies it: an event they cannot see is 404 whatever its state.
      const event = await this.events.lockVisible(manager, actor.projectId, eventId, viewerOf(actor));
      if (!event) throw EventErrors.notFound();
      if (event.status === 'cancelled') throw EventErrors.cancelled();
      if (Date.now() >= event.startTime.getTime()) throw EventErrors.rsvpClosed();
      // A key acting for a user sees every event; the user it names must still be a member.
      if (
        event.visibility === 'members' &&
        event.spaceId &&
        !(await this.spaces.isActiveMember(actor.projectId, event.spaceId, userId))
      ) {
        throw EventErrors.rsvpNotSpaceMember();
      }
      await apply(manager, event, await this.rsvps.findStatus(manager, actor.projectId, event.id, userId));
      const fresh = (await this.events.findInProject(actor.projectId, event.id, manager)) as EventRecord;
      const files = await this.files.findForEvents(actor.projectId, [event.id], manager);
      return toEventView(fresh, files, (key) => this.settings.storage.url(key));
    });
  }
}
