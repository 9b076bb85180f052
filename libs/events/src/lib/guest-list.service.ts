import { Injectable } from '@nestjs/common';
import { EventActor } from './actor';
import { EventQueryService } from './event-query.service';
import { RsvpStatus } from './event-rsvp.entity';
import { EventErrors } from './events.errors';
import { RsvpRepository } from './repositories/rsvp.repository';

export interface GuestView {
  userId: string;
  status: RsvpStatus;
  createdAt: string;
  updatedAt: string;
}

export interface GuestPage {
  data: GuestView[];
  pagination: { page: number; pageSize: number; totalPages: number; totalItems: number; hasMore: boolean };
}

/** GET .../events/:id/rsvps after the app validated its query string. */
export interface GuestListQuery {
  status: RsvpStatus | null;
  page: number;
  limit: number;
}

/**
 * The named guest list of an event (its RSVPs). `guestListVisible: false` limits it to hosts and to service or
 * master keys; everyone else who can see the event gets 403 `event/guest-list-hidden`.
 */
@Injectable()
export class GuestListService {
  constructor(
    private readonly rsvps: RsvpRepository,
    private readonly events: EventQueryService,
  ) {}

  async list(actor: EventActor, eventId: string, { status, page, limit }: GuestListQuery): Promise<GuestPage> {
    const event = await this.events.get(actor, eventId);
    if (!event.guestListVisible && actor.kind === 'user' && !event.hostIds.includes(actor.userId as string)) {
      throw EventErrors.guestListHidden();
    }
    const [rows, total] = await this.rsvps.guestPage(actor.projectId, event.id, { page, limit, status });
    return {
      data: rows.map((row) => ({
        userId: row.userId,
        status: row.status,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      })),
      pagination: {
        page,
        pageSize: limit,
        totalPages: Math.ceil(total / limit),
        totalItems: total,
        hasMore: page * limit < total,
      },
    };
  }
}
