import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { EventFile } from '../event-file.entity';

export type NewEventFile = Omit<EventFile, 'createdAt'>;

/** Image files of events; every statement is scoped to the project. */
@Injectable()
export class EventFileRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The files of these events; `db` may be a read replica, `manager` a transaction. */
  findForEvents(
    projectId: string,
    eventIds: string[],
    db: DataSource | EntityManager = this.dataSource,
  ): Promise<EventFile[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    const manager = db instanceof DataSource ? db.manager : db;
    return manager.findBy(EventFile, { projectId, eventId: In(eventIds) });
  }

  insertMany(manager: EntityManager, files: NewEventFile[]): Promise<EventFile[]> {
    if (files.length === 0) return Promise.resolve([]);
    return manager.save(files.map((file) => manager.create(EventFile, file)));
  }
}
