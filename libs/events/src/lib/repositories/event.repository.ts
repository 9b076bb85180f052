import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { communityTable, COMMUNITY_SCHEMA } from '@acme/community';
import type { ListEventsQuery, NearFilter } from '../event-query';
import type { RsvpStatus } from '../event-rsvp.entity';
import { EventRecord } from '../event.entity';

const EVENTS = communityTable('events');
const RSVPS = communityTable('event_rsvps');
const SPACE_MEMBERS = communityTable('space_members');
const GEO_POINT = `"${COMMUNITY_SCHEMA}"."geo_point"(:nearLat, :nearLng)`;

/** The radius filter in SQL: the GiST index answers the earth_box test, the exact distance trims its corners. */
const NEAR_CONDITION = `public.earth_box(${GEO_POINT}, :nearRadius) @> e.earth_point AND public.earth_distance(${GEO_POINT}, e.earth_point) <= :nearRadius`;
const DISTANCE_EXPRESSION = `public.earth_distance(${GEO_POINT}, e.earth_point)`;
const nearParameters = (near: NearFilter) => ({ nearLat: near.latitude, nearLng: near.longitude, nearRadius: near.radius });
const COUNT_COLUMN: Record<RsvpStatus, string> = { going: 'going_count', maybe: 'maybe_count', not_going: 'not_going_count' };

/**
 * Whose eyes a read is for: `null` sees every event of the project (service and master keys); a user sees
 * public events, events they host or RSVPed to, and members events of their active spaces.
 */
export type EventViewer = string | null;

export type NewEvent = Omit<EventRecord, 'status' | 'goingCount' | 'maybeCount' | 'notGoingCount' | 'createdAt' | 'updatedAt'>;

/** Events; every statement is scoped to the project. */
@Injectable()
export class EventRepository {
  constructor(private readonly dataSource: DataSource) {}

  private visibleTo(builder: SelectQueryBuilder<EventRecord>, viewer: EventViewer): SelectQueryBuilder<EventRecord> {
    if (viewer === null) return builder;
    return builder.andWhere(
      `(e.visibility = 'public' OR CAST(:viewer AS text) = ANY(e.host_ids)
        OR EXISTS (SELECT 1 FROM ${RSVPS} r WHERE r.event_id = e.id AND r.user_id = CAST(:viewer AS uuid))
        OR (e.visibility = 'members' AND EXISTS (SELECT 1 FROM ${SPACE_MEMBERS} m
            WHERE m.space_id = e.space_id AND m.project_id = e.project_id AND m.user_id = CAST(:viewer AS uuid) AND m.status = 'active')))`,
      { viewer },
    );
  }

  /** The event if the viewer may see it. */
  async findVisible(projectId: string, eventId: string, viewer: EventViewer): Promise<EventRecord | undefined> {
    const builder = this.dataSource.getRepository(EventRecord).createQueryBuilder('e').where('e.id = :eventId AND e.projectId = :projectId', { eventId, projectId });
    return (await this.visibleTo(builder, viewer).getOne()) ?? undefined;
  }

  /** The filtered, ordered list (unpaged), for `listPage` and for inspecting its plan. */
  listBuilder(projectId: string, viewer: EventViewer, query: ListEventsQuery, db: DataSource = this.dataSource): SelectQueryBuilder<EventRecord> {
    const builder = db.getRepository(EventRecord).createQueryBuilder('e').where('e.projectId = :projectId', { projectId });
    if (query.from) builder.andWhere('e.startTime >= :from', { from: query.from });
    if (query.to) builder.andWhere('e.startTime < :to', { to: query.to });
    if (query.type) builder.andWhere('e.type = :type', { type: query.type });
    if (query.visibility) builder.andWhere('e.visibility = :visibility', { visibility: query.visibility });
    if (query.status) builder.andWhere('e.status = :status', { status: query.status });
    if (query.spaceId) builder.andWhere('e.spaceId = :spaceId', { spaceId: query.spaceId });
    if (query.userId) builder.andWhere('e.userId = :creator', { creator: query.userId });
    if (query.hostId) builder.andWhere('e.host_ids @> ARRAY[:hostId]::text[]', { hostId: query.hostId });
    if (query.near) builder.andWhere(NEAR_CONDITION, nearParameters(query.near));
    this.visibleTo(builder, viewer);
    if (query.sortBy === 'distance') builder.orderBy(DISTANCE_EXPRESSION, 'ASC').addOrderBy('e.id', 'ASC');
    else builder.orderBy('e.startTime', 'ASC').addOrderBy('e.id', 'ASC');
    return builder;
  }

  /** One page and the total; `db` may be a read replica. */
  listPage(projectId: string, viewer: EventViewer, query: ListEventsQuery, db: DataSource = this.dataSource): Promise<[EventRecord[], number]> {
    return this.listBuilder(projectId, viewer, query, db)
      .offset((query.page - 1) * query.limit)
      .limit(query.limit)
      .getManyAndCount();
  }

  async findInProject(projectId: string, eventId: string, manager: EntityManager = this.dataSource.manager): Promise<EventRecord | undefined> {
    return (await manager.findOneBy(EventRecord, { id: eventId, projectId })) ?? undefined;
  }

  /** Locks the event row until the caller's transaction ends (RSVPs to one event apply one at a time). */
  async lockInProject(manager: EntityManager, projectId: string, eventId: string): Promise<EventRecord | undefined> {
    const event = await manager
      .createQueryBuilder(EventRecord, 'e')
      .setLock('pessimistic_write')
      .where('e.id = :eventId AND e.projectId = :projectId', { eventId, projectId })
      .getOne();
    return event ?? undefined;
  }

  async markCancelled(projectId: string, eventId: string): Promise<void> {
    await this.dataSource.getRepository(EventRecord).update({ id: eventId, projectId }, { status: 'cancelled', updatedAt: new Date() });
  }

  /** Moves one RSVP between the counters (`null`: none before, or none after). */
  async shiftRsvpCount(manager: EntityManager, projectId: string, eventId: string, previous: RsvpStatus | null, next: RsvpStatus | null): Promise<void> {
    const sets = [
      ...(previous ? [`${COUNT_COLUMN[previous]} = ${COUNT_COLUMN[previous]} - 1`] : []),
      ...(next ? [`${COUNT_COLUMN[next]} = ${COUNT_COLUMN[next]} + 1`] : []),
    ];
    if (sets.length === 0) return;
    await manager.query(`UPDATE ${EVENTS} SET ${sets.join(', ')}, updated_at = now() WHERE id = $1 AND project_id = $2`, [eventId, projectId]);
  }

  async insert(manager: EntityManager, event: NewEvent): Promise<void> {
    await manager.save(manager.create(EventRecord, { ...event, status: 'active' }));
  }
}
