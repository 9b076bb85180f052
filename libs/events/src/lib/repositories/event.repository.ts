import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { EventFile } from '../event-file.entity';
import { communityTable } from '@acme/community-schema';
import { queryRows } from '@acme/platform-persistence';
import type { ListEventsQuery } from '../event-query';
import type { RsvpStatus } from '../event-rsvp.entity';
import { EventRecord } from '../event.entity';
import { EVENT_COLUMNS, listEventsStatement, visibilityCondition } from './event-list.statement';

const EVENTS = communityTable('events');
const COUNT_COLUMN: Record<RsvpStatus, string> = {
  going: 'going_count',
  maybe: 'maybe_count',
  not_going: 'not_going_count',
};

/**
 * Whose eyes a read is for: `null` sees every event of the project (service and master keys); a user sees
 * public events, events they host or RSVPed to, and members events of their active spaces.
 */
export type EventViewer = string | null;

/** A listed event with its files (null when it has none), fetched in the same statement. */
export type ListedEvent = EventRecord & { files: EventFile[] | null };

export type NewEvent = Omit<
  EventRecord,
  'status' | 'goingCount' | 'maybeCount' | 'notGoingCount' | 'createdAt' | 'updatedAt'
>;

/** Events; every statement is scoped to the project. */
@Injectable()
export class EventRepository {
  constructor(private readonly dataSource: DataSource) {}

  private visibleTo(builder: SelectQueryBuilder<EventRecord>, viewer: EventViewer): SelectQueryBuilder<EventRecord> {
    if (viewer === null) return builder;
    return builder.andWhere(visibilityCondition('CAST(:viewer AS text)', 'CAST(:viewer AS uuid)'), { viewer });
  }

  /** The event if the viewer may see it. */
  async findVisible(projectId: string, eventId: string, viewer: EventViewer): Promise<EventRecord | undefined> {
    const builder = this.dataSource
      .getRepository(EventRecord)
      .createQueryBuilder('e')
      .where('e.id = :eventId AND e.projectId = :projectId', { eventId, projectId });
    return (await this.visibleTo(builder, viewer).getOne()) ?? undefined;
  }

  /**
   * One page, its files and the total in one round trip (event-list.statement.ts); `db` may be a read replica.
   * Rows come back already in EventRecord's shape, files as EventFile-shaped JSON.
   */
  async listPage(
    projectId: string,
    viewer: EventViewer,
    query: ListEventsQuery,
    db: DataSource = this.dataSource,
  ): Promise<[ListedEvent[], number]> {
    const { text, parameters } = listEventsStatement(projectId, viewer, query);
    // Straight to the pool (a hot route): no TypeORM query runner around the one statement.
    const rows = await queryRows<ListedEvent & { total: number }>(db, text, parameters);
    const total = rows[0]?.total ?? 0;
    // An empty page still carries the total, on one row of nulls (the LEFT JOIN).
    if (rows.length === 1 && rows[0]?.id === null) return [[], total];
    return [rows.map(({ total: _total, ...event }) => event), total];
  }

  async findInProject(
    projectId: string,
    eventId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EventRecord | undefined> {
    return (await manager.findOneBy(EventRecord, { id: eventId, projectId })) ?? undefined;
  }

  /**
   * The event if the viewer may see it (the rule of `findVisible`), locked until the caller's transaction ends:
   * RSVPs to one event apply one at a time, and an event the viewer cannot see is neither read nor changed.
   */
  async lockVisible(
    manager: EntityManager,
    projectId: string,
    eventId: string,
    viewer: EventViewer,
  ): Promise<EventRecord | undefined> {
    const builder = manager
      .createQueryBuilder(EventRecord, 'e')
      .setLock('pessimistic_write')
      .where('e.id = :eventId AND e.projectId = :projectId', { eventId, projectId });
    return (await this.visibleTo(builder, viewer).getOne()) ?? undefined;
  }

  async markCancelled(projectId: string, eventId: string): Promise<void> {
    await this.dataSource
      .getRepository(EventRecord)
      .update({ id: eventId, projectId }, { status: 'cancelled', updatedAt: new Date() });
  }

  /** Moves one RSVP between the counters (`null`: none before, or none after). */
  async shiftRsvpCount(
    manager: EntityManager,
    projectId: string,
    eventId: string,
    previous: RsvpStatus | null,
    next: RsvpStatus | null,
  ): Promise<void> {
    const sets = [
      ...(previous ? [`${COUNT_COLUMN[previous]} = ${COUNT_COLUMN[previous]} - 1`] : []),
      ...(next ? [`${COUNT_COLUMN[next]} = ${COUNT_COLUMN[next]} + 1`] : []),
    ];
    if (sets.length === 0) return;
    await manager.query(
      `UPDATE ${EVENTS} SET ${sets.join(', ')}, updated_at = now() WHERE id = $1 AND project_id = $2`,
      [eventId, projectId],
    );
  }

  /** One INSERT returning the stored row (defaults and timestamps filled in): no read-back, no upsert probe. */
  async insert(manager: EntityManager | DataSource, event: NewEvent): Promise<EventRecord> {
    // Outside a transaction straight to the pool (a hot route); inside one, on the transaction's connection.
    const rows = await queryRows<EventRecord>(
      manager,
      `INSERT INTO ${EVENTS} AS e (id, project_id, user_id, title, description, start_time, end_time, timezone, type, url, venue_name, address,
         location, space_id, visibility, allow_maybe, guest_list_visible, capacity, host_ids, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       RETURNING ${EVENT_COLUMNS}`,
      [
        event.id,
        event.projectId,
        event.userId,
        event.title,
        event.description,
        event.startTime,
        event.endTime,
        event.timezone,
        event.type,
        event.url,
        event.venueName,
        event.address,
        event.location === null ? null : JSON.stringify(event.location),
        event.spaceId,
        event.visibility,
        event.allowMaybe,
        event.guestListVisible,
        event.capacity,
        event.hostIds,
        JSON.stringify(event.metadata),
      ],
    );
    return rows[0] as EventRecord;
  }
}
