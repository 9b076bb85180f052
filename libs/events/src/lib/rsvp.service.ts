import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EventActor } from './actor';
import { EventFile } from './event-file.entity';
import { EventRsvp, RSVP_STATUSES, RsvpStatus } from './event-rsvp.entity';
import { EventRecord } from './event.entity';
import { EventView, toEventView } from './event-view';
import { EventError, EventErrorCode, invalidBody } from './events.errors';
import { EventsSettings } from './events.settings';
import { isPlainObject, oneOf, optionalString, rejectUnknown } from './input-checks';
import { SpaceService } from './space.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COUNT_COLUMN: Record<RsvpStatus, string> = { going: 'going_count', maybe: 'maybe_count', not_going: 'not_going_count' };

export const notFound = () => new EventError(EventErrorCode.NOT_FOUND, 'The event does not exist.');

/**
 * RSVPs. Each change locks its event row, so concurrent RSVPs to one event apply one at a time: the capacity
 * check and the counters stay exact (and a CHECK constraint backs the capacity up).
 */
@Injectable()
export class RsvpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: EventsSettings,
    private readonly spaces: SpaceService,
  ) {}

  async set(actor: EventActor, eventId: string, body: unknown): Promise<EventView> {
    if (!isPlainObject(body)) throw invalidBody('The body must be a JSON object');
    rejectUnknown(body, ['status', 'userId'], '');
    if (body['status'] === undefined) throw invalidBody('status is required', 'status');
    const status = oneOf(body['status'], 'status', RSVP_STATUSES);
    const userId = await this.resolveUser(actor, body['userId']);
    return this.change(actor, eventId, userId, async (manager, event, previous) => {
      if (status === 'maybe' && !event.allowMaybe) throw new EventError(EventErrorCode.MAYBE_DISABLED, 'This event does not accept maybe.');
      if (status === 'going' && previous !== 'going' && event.capacity !== null && event.goingCount >= event.capacity) {
        throw new EventError(EventErrorCode.FULL, 'The event is full.');
      }
      if (previous === status) return;
      await manager.query(
        `INSERT INTO "community"."event_rsvps" (project_id, event_id, user_id, status) VALUES ($1, $2, $3, $4)
         ON CONFLICT (event_id, user_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()`,
        [actor.projectId, event.id, userId, status],
      );
      await this.adjustCounts(manager, event.id, previous, status);
    });
  }

  /** Withdrawing is idempotent: no RSVP, nothing to do, same answer. */
  async withdraw(actor: EventActor, eventId: string, body: unknown): Promise<EventView> {
    const payload = body === undefined || body === null ? {} : body;
    if (!isPlainObject(payload)) throw invalidBody('The body must be a JSON object');
    rejectUnknown(payload, ['userId'], '');
    const userId = await this.resolveUser(actor, payload['userId']);
    return this.change(actor, eventId, userId, async (manager, event, previous) => {
      if (previous === null) return;
      await manager.delete(EventRsvp, { eventId: event.id, userId });
      await this.adjustCounts(manager, event.id, previous, null);
    });
  }

  private async resolveUser(actor: EventActor, raw: unknown): Promise<string> {
    const userId = optionalString(raw, 'userId', 200);
    if (actor.kind === 'user') {
      if (userId !== undefined && userId !== actor.userId) throw invalidBody('userId is only accepted with a service or master key', 'userId');
      return actor.userId as string;
    }
    if (!userId) throw invalidBody('userId is required with a service or master key', 'userId');
    if (!(await this.settings.users.userExists(actor.projectId, userId))) throw invalidBody('userId does not name a user of this project', 'userId');
    return userId;
  }

  private async change(
    actor: EventActor,
    eventId: string,
    userId: string,
    apply: (manager: EntityManager, event: EventRecord, previous: RsvpStatus | null) => Promise<void>,
  ): Promise<EventView> {
    if (!UUID.test(eventId)) throw notFound();
    return this.dataSource.transaction(async (manager) => {
      const event = await manager
        .createQueryBuilder(EventRecord, 'e')
        .setLock('pessimistic_write')
        .where('e.id = :eventId AND e.projectId = :projectId', { eventId, projectId: actor.projectId })
        .getOne();
      if (!event) throw notFound();
      if (event.status === 'cancelled') throw new EventError(EventErrorCode.CANCELLED, 'The event is cancelled.');
      if (Date.now() >= event.startTime.getTime()) throw new EventError(EventErrorCode.RSVP_CLOSED, 'RSVPs closed when the event started.');
      if (event.visibility === 'members' && event.spaceId && !(await this.spaces.isActiveMember(actor.projectId, event.spaceId, userId))) {
        throw new EventError(EventErrorCode.NOT_SPACE_MEMBER, 'Only active members of the space can RSVP.');
      }
      const existing = await manager.findOneBy(EventRsvp, { eventId: event.id, userId });
      await apply(manager, event, existing?.status ?? null);
      const fresh = await manager.findOneByOrFail(EventRecord, { id: event.id });
      const files = await manager.findBy(EventFile, { eventId: event.id, projectId: actor.projectId });
      return toEventView(fresh, files, (key) => this.settings.storage.url(key));
    });
  }

  private async adjustCounts(manager: EntityManager, eventId: string, previous: RsvpStatus | null, next: RsvpStatus | null): Promise<void> {
    const sets = [
      ...(previous ? [`${COUNT_COLUMN[previous]} = ${COUNT_COLUMN[previous]} - 1`] : []),
      ...(next ? [`${COUNT_COLUMN[next]} = ${COUNT_COLUMN[next]} + 1`] : []),
    ];
    await manager.query(`UPDATE "community"."events" SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [eventId]);
  }
}
