import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { communityTable } from '@acme/community-schema';
import { EventRsvp, RsvpStatus } from '../event-rsvp.entity';

const RSVPS = communityTable('event_rsvps');

export interface GuestListPage {
  page: number;
  limit: number;
  status: RsvpStatus | null;
}

/** RSVPs; every statement is scoped to the project. */
@Injectable()
export class RsvpRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findStatus(
    manager: EntityManager,
    projectId: string,
    eventId: string,
    userId: string,
  ): Promise<RsvpStatus | null> {
    return (await manager.findOneBy(EventRsvp, { projectId, eventId, userId }))?.status ?? null;
  }

  async upsert(
    manager: EntityManager,
    projectId: string,
    eventId: string,
    userId: string,
    status: RsvpStatus,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO ${RSVPS} AS r (project_id, event_id, user_id, status) VALUES ($1, $2, $3, $4)
       ON CONFLICT (event_id, user_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now() WHERE r.project_id = EXCLUDED.project_id`,
      [projectId, eventId, userId, status],
    );
  }

  async delete(manager: EntityManager, projectId: string, eventId: string, userId: string): Promise<void> {
    await manager.delete(EventRsvp, { projectId, eventId, userId });
  }

  /** The event's RSVPs in the order they were made, one page, and the total. */
  guestPage(
    projectId: string,
    eventId: string,
    { page, limit, status }: GuestListPage,
  ): Promise<[EventRsvp[], number]> {
    return this.dataSource.getRepository(EventRsvp).findAndCount({
      where: { projectId, eventId, ...(status ? { status } : {}) },
      order: { createdAt: 'ASC', userId: 'ASC' },
      skip: (page - 1) * limit,
      take: limit,
    });
  }
}
