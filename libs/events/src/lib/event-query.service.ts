import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid, ReadReplicas } from '@acme/platform-persistence';
import { EventActor } from './actor';
import { ListEventsQuery } from './event-query';
import { EventRecord } from './event.entity';
import { EventView, toEventView } from './event-view';
import { EventErrors } from './events.errors';
import { EventsSettings } from './events.settings';
import { EventFileRepository } from './repositories/event-file.repository';
import { listEventsStatement, Statement } from './repositories/event-list.statement';
import { EventRepository, EventViewer } from './repositories/event.repository';

export interface EventPage {
  data: EventView[];
  pagination: { page: number; pageSize: number; totalPages: number; totalItems: number; hasMore: boolean };
}

/** End users see what their visibility rules allow; service and master keys see every event of the project. */
export const viewerOf = (actor: EventActor): EventViewer => (actor.kind === 'user' ? actor.userId : null);

/** Reading events: one by id, pages with filters and proximity, and cancelling. */
@Injectable()
export class EventQueryService {
  constructor(
    private readonly events: EventRepository,
    private readonly files: EventFileRepository,
    private readonly settings: EventsSettings,
    private readonly replicas: ReadReplicas,
  ) {}

  async get(actor: EventActor, eventId: string): Promise<EventView> {
    if (!isUuid(eventId)) throw EventErrors.notFound();
    const event = await this.events.findVisible(actor.projectId, eventId, viewerOf(actor));
    if (!event) throw EventErrors.notFound();
    return (await this.present(actor, [event]))[0] as EventView;
  }

  /** Lists and radius searches tolerate replication lag: a read replica answers when there is one. */
  async list(actor: EventActor, query: ListEventsQuery): Promise<EventPage> {
    const [events, total] = await this.replicas.read((db) =>
      this.events.listPage(actor.projectId, viewerOf(actor), query, db),
    );
    const urlFor = (key: string) => this.settings.storage.url(key);
    return {
      data: events.map(({ files, ...event }) => toEventView(event, files ?? [], urlFor)),
      pagination: {
        page: query.page,
        pageSize: query.limit,
        totalPages: Math.ceil(total / query.limit),
        totalItems: total,
        hasMore: query.page * query.limit < total,
      },
    };
  }

  /** The list's one statement (its plan is checked against the GiST index). */
  listStatement(actor: EventActor, query: ListEventsQuery): Statement {
    return listEventsStatement(actor.projectId, viewerOf(actor), query);
  }

  /**
   * Hosts, or a service/master key, cancel an event; RSVPs then answer `event/cancelled`. An event the caller
   * cannot see is 404, so only a caller who may see it learns that they are not a host (403).
   */
  async cancel(actor: EventActor, eventId: string): Promise<EventView> {
    if (!isUuid(eventId)) throw EventErrors.notFound();
    const event = await this.events.findVisible(actor.projectId, eventId, viewerOf(actor));
    if (!event) throw EventErrors.notFound();
    if (actor.kind === 'user' && !event.hostIds.includes(actor.userId as string)) {
      throw EventErrors.notHost();
    }
    await this.events.markCancelled(actor.projectId, eventId);
    return this.get({ ...actor, kind: 'master' }, eventId);
  }

  private async present(actor: EventActor, events: EventRecord[], db?: DataSource): Promise<EventView[]> {
    if (events.length === 0) return [];
    const files = await this.files.findForEvents(
      actor.projectId,
      events.map((event) => event.id),
      db,
    );
    const urlFor = (key: string) => this.settings.storage.url(key);
    return events.map((event) =>
      toEventView(
        event,
        files.filter((file) => file.eventId === event.id),
        urlFor,
      ),
    );
  }
}
