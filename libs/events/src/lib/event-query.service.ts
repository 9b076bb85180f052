import { Injectable } from '@nestjs/common';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import { ReadReplicas } from '@acme/platform-persistence';
import { EventActor } from './actor';
import { EventFile } from './event-file.entity';
import { ListEventsQuery, NearFilter, parseListEventsQuery } from './event-query';
import { EventRecord } from './event.entity';
import { EventView, toEventView } from './event-view';
import { EventError, EventErrorCode } from './events.errors';
import { EventsSettings } from './events.settings';
import { notFound } from './rsvp.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventPage {
  data: EventView[];
  pagination: { page: number; pageSize: number; totalPages: number; totalItems: number; hasMore: boolean };
}

/** The radius filter in SQL: the GiST index answers the earth_box test, the exact distance trims its corners. */
export const NEAR_CONDITION =
  'public.earth_box(community.geo_point(:nearLat, :nearLng), :nearRadius) @> e.earth_point ' +
  'AND public.earth_distance(community.geo_point(:nearLat, :nearLng), e.earth_point) <= :nearRadius';
export const DISTANCE_EXPRESSION = 'public.earth_distance(community.geo_point(:nearLat, :nearLng), e.earth_point)';
export const nearParameters = (near: NearFilter) => ({ nearLat: near.latitude, nearLng: near.longitude, nearRadius: near.radius });

/** Reading events: one by id, pages with filters and proximity, and cancelling. */
@Injectable()
export class EventQueryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: EventsSettings,
    private readonly replicas: ReadReplicas,
  ) {}

  /** End users see public events, events they host or RSVPed to, and members events of their active spaces. */
  private visibleTo(builder: SelectQueryBuilder<EventRecord>, actor: EventActor): SelectQueryBuilder<EventRecord> {
    if (actor.kind !== 'user') return builder;
    return builder.andWhere(
      `(e.visibility = 'public' OR CAST(:viewer AS text) = ANY(e.host_ids)
        OR EXISTS (SELECT 1 FROM "community"."event_rsvps" r WHERE r.event_id = e.id AND r.user_id = CAST(:viewer AS uuid))
        OR (e.visibility = 'members' AND EXISTS (SELECT 1 FROM "community"."space_members" m
            WHERE m.space_id = e.space_id AND m.project_id = e.project_id AND m.user_id = CAST(:viewer AS uuid) AND m.status = 'active')))`,
      { viewer: actor.userId },
    );
  }

  async get(actor: EventActor, eventId: string): Promise<EventView> {
    if (!UUID.test(eventId)) throw notFound();
    const builder = this.dataSource.getRepository(EventRecord).createQueryBuilder('e').where('e.id = :eventId AND e.projectId = :projectId', { eventId, projectId: actor.projectId });
    const event = await this.visibleTo(builder, actor).getOne();
    if (!event) throw notFound();
    return (await this.present(actor, [event]))[0] as EventView;
  }

  /** Lists and radius searches tolerate replication lag: a read replica answers when there is one. */
  async list(actor: EventActor, rawQuery: unknown): Promise<EventPage> {
    const query = parseListEventsQuery(rawQuery);
    const { total, data } = await this.replicas.read(async (db) => {
      const [events, total] = await this.listBuilder(actor, query, db)
        .offset((query.page - 1) * query.limit)
        .limit(query.limit)
        .getManyAndCount();
      return { total, data: await this.present(actor, events, db) };
    });
    return {
      data,
      pagination: { page: query.page, pageSize: query.limit, totalPages: Math.ceil(total / query.limit), totalItems: total, hasMore: query.page * query.limit < total },
    };
  }

  listBuilder(actor: EventActor, query: ListEventsQuery, db = this.dataSource): SelectQueryBuilder<EventRecord> {
    const builder = db.getRepository(EventRecord).createQueryBuilder('e').where('e.projectId = :projectId', { projectId: actor.projectId });
    if (query.from) builder.andWhere('e.startTime >= :from', { from: query.from });
    if (query.to) builder.andWhere('e.startTime < :to', { to: query.to });
    if (query.type) builder.andWhere('e.type = :type', { type: query.type });
    if (query.visibility) builder.andWhere('e.visibility = :visibility', { visibility: query.visibility });
    if (query.status) builder.andWhere('e.status = :status', { status: query.status });
    if (query.spaceId) builder.andWhere('e.spaceId = :spaceId', { spaceId: query.spaceId });
    if (query.userId) builder.andWhere('e.userId = :creator', { creator: query.userId });
    if (query.hostId) builder.andWhere('e.host_ids @> ARRAY[:hostId]::text[]', { hostId: query.hostId });
    if (query.near) builder.andWhere(NEAR_CONDITION, nearParameters(query.near));
    this.visibleTo(builder, actor);
    if (query.sortBy === 'distance') builder.orderBy(DISTANCE_EXPRESSION, 'ASC').addOrderBy('e.id', 'ASC');
    else builder.orderBy('e.startTime', 'ASC').addOrderBy('e.id', 'ASC');
    return builder;
  }

  /** Hosts, or a service/master key, cancel an event; RSVPs then answer `event/cancelled`. */
  async cancel(actor: EventActor, eventId: string): Promise<EventView> {
    if (!UUID.test(eventId)) throw notFound();
    const repository = this.dataSource.getRepository(EventRecord);
    const event = await repository.findOneBy({ id: eventId, projectId: actor.projectId });
    if (!event) throw notFound();
    if (actor.kind === 'user' && !event.hostIds.includes(actor.userId as string)) {
      throw new EventError(EventErrorCode.NOT_HOST, 'Only a host can cancel the event.');
    }
    await repository.update({ id: eventId, projectId: actor.projectId }, { status: 'cancelled', updatedAt: new Date() });
    return this.get({ ...actor, kind: 'master' }, eventId);
  }

  private async present(actor: EventActor, events: EventRecord[], db = this.dataSource): Promise<EventView[]> {
    if (events.length === 0) return [];
    const files = await db.getRepository(EventFile).findBy({ projectId: actor.projectId, eventId: In(events.map((event) => event.id)) });
    const urlFor = (key: string) => this.settings.storage.url(key);
    return events.map((event) => toEventView(event, files.filter((file) => file.eventId === event.id), urlFor));
  }
}
