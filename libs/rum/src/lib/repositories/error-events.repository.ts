import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rumTable } from '@acme/rum-schema';
import { toPostgresJson } from '../text';
import { Queryable } from './queryable';

const ERROR_EVENTS = rumTable('error_events');

export interface EventToStore {
  /** Milliseconds since the epoch. */
  occurredAt: number;
  payload: Record<string, unknown>;
}

/** rum.error_events (partitioned by day); every query is scoped to one application. */
@Injectable()
export class ErrorEventsRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  /** One statement per batch; json (not jsonb) keeps each payload as sent, toPostgresJson neutralises what Postgres cannot hold. */
  async insertBatch(applicationId: string, events: readonly EventToStore[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(
      `INSERT INTO ${ERROR_EVENTS} ("application_id", "occurred_at", "payload")
       SELECT $1, to_timestamp((e->>'t')::float8 / 1000), e->'p' FROM json_array_elements($2::json) AS e`,
      [applicationId, toPostgresJson(events.map((event) => ({ t: event.occurredAt, p: event.payload })))],
    );
  }

  /** Newest first. */
  async between(applicationId: string, from: Date, to: Date, limit: number): Promise<Record<string, unknown>[]> {
    const rows: { payload: Record<string, unknown> }[] = await this.db.query(
      `SELECT "payload" FROM ${ERROR_EVENTS} WHERE "application_id" = $1 AND "occurred_at" >= $2 AND "occurred_at" < $3 ORDER BY "occurred_at" DESC LIMIT $4`,
      [applicationId, from, to, limit],
    );
    return rows.map((row) => row.payload);
  }
}
