import { Injectable } from '@nestjs/common';
import { EventActor } from './actor';
import { EventQueryService } from './event-query.service';
import { RSVP_STATUSES, RsvpStatus } from './event-rsvp.entity';
import { EventError, EventErrorCode, invalidQuery } from './events.errors';
import { isPlainObject } from './input-checks';
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

function positive(query: Record<string, unknown>, key: string, max: number, fallback: number): number {
  const value = query[key];
  if (value === undefined) return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > max) throw invalidQuery(`${key} must be an integer from 1 to ${max}`, key);
  return number;
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

  async list(actor: EventActor, eventId: string, rawQuery: unknown): Promise<GuestPage> {
    const query = isPlainObject(rawQuery) ? rawQuery : {};
    const unknown = Object.keys(query).find((key) => !['status', 'page', 'limit'].includes(key));
    if (unknown !== undefined) throw invalidQuery(`${unknown} is not a known query parameter`, unknown);
    const status = query['status'];
    if (status !== undefined && (typeof status !== 'string' || !(RSVP_STATUSES as readonly string[]).includes(status))) {
      throw invalidQuery(`status must be one of ${RSVP_STATUSES.join(', ')}`, 'status');
    }
    const page = positive(query, 'page', 1_000_000, 1);
    const limit = positive(query, 'limit', 100, 50);
    const event = await this.events.get(actor, eventId);
    if (!event.guestListVisible && actor.kind === 'user' && !event.hostIds.includes(actor.userId as string)) {
      throw new EventError(EventErrorCode.GUEST_LIST_HIDDEN, 'Only hosts can see the guest list of this event.');
    }
    const [rows, total] = await this.rsvps.guestPage(actor.projectId, event.id, { page, limit, status: (status as RsvpStatus | undefined) ?? null });
    return {
      data: rows.map((row) => ({ userId: row.userId, status: row.status, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() })),
      pagination: { page, pageSize: limit, totalPages: Math.ceil(total / limit), totalItems: total, hasMore: page * limit < total },
    };
  }
}
