import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RuleSetCache } from './rule-set.cache';
import { toPostgresJson } from './text';

export interface IngestOutcome {
  accepted: number;
  dropped: number;
}

/** Millisecond timestamps between 1970 and 2200 are taken as the event's time; anything else means "now". */
const MAX_EVENT_MS = 7_258_118_400_000;

function eventTime(event: Record<string, unknown>, now: number): number {
  const date = event['date'];
  return typeof date === 'number' && Number.isFinite(date) && date >= 0 && date <= MAX_EVENT_MS ? date : now;
}

/** Drops the events that match an enabled rule (counting them per rule) and stores the rest. */
@Injectable()
export class IngestService {
  constructor(
    private readonly db: DataSource,
    private readonly cache: RuleSetCache,
  ) {}

  async ingest(applicationId: string, ruleSetVersion: number, events: Record<string, unknown>[]): Promise<IngestOutcome> {
    const matcher = await this.cache.matcherFor(applicationId, ruleSetVersion);
    const droppedBySlot = new Map<number, number>();
    const kept: { t: number; p: Record<string, unknown> }[] = [];
    const now = Date.now();
    for (const event of events) {
      const slot = matcher.match(event);
      if (slot === -1) kept.push({ t: eventTime(event, now), p: event });
      else droppedBySlot.set(slot, (droppedBySlot.get(slot) ?? 0) + 1);
    }
    if (kept.length > 0) {
      // json (not jsonb) keeps the payload as sent; toPostgresJson neutralises what Postgres cannot hold.
      await this.db.query(
        `INSERT INTO "rum"."error_events" ("application_id", "occurred_at", "payload")
         SELECT $1, to_timestamp((e->>'t')::float8 / 1000), e->'p' FROM json_array_elements($2::json) AS e`,
        [applicationId, toPostgresJson(kept)],
      );
    }
    if (droppedBySlot.size > 0) {
      const counted = [...droppedBySlot].map(([slot, n]) => [matcher.ruleIds[slot], n] as const).sort(([a], [b]) => (a < b ? -1 : 1));
      // One short statement of its own, locking the rule rows in id order: concurrent batches queue, never deadlock.
      await this.db.query(
        `WITH c AS (SELECT * FROM unnest($2::varchar[], $3::bigint[]) AS c("id", "n")),
              locked AS (SELECT r."id" FROM "rum"."rules" r JOIN c ON c."id" = r."id" WHERE r."application_id" = $1 ORDER BY r."id" FOR UPDATE OF r)
         UPDATE "rum"."rules" r SET "discarded_count" = r."discarded_count" + c."n" FROM c, locked WHERE r."id" = c."id" AND locked."id" = r."id"`,
        [applicationId, counted.map(([id]) => id), counted.map(([, n]) => n)],
      );
    }
    return { accepted: kept.length, dropped: events.length - kept.length };
  }

  /** Stored events of an application in a time range (what the index serves); newest first. */
  async storedEvents(applicationId: string, from: Date, to: Date, limit = 1000): Promise<Record<string, unknown>[]> {
    const rows: { payload: Record<string, unknown> }[] = await this.db.query(
      `SELECT "payload" FROM "rum"."error_events" WHERE "application_id" = $1 AND "occurred_at" >= $2 AND "occurred_at" < $3 ORDER BY "occurred_at" DESC LIMIT $4`,
      [applicationId, from, to, limit],
    );
    return rows.map((row) => row.payload);
  }
}
