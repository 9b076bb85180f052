import { Injectable } from '@nestjs/common';
import { ErrorEventsRepository, EventToStore } from './repositories/error-events.repository';
import { RulesRepository } from './repositories/rules.repository';
import { RuleSetCache } from './rule-set.cache';

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
    private readonly events: ErrorEventsRepository,
    private readonly rules: RulesRepository,
    private readonly cache: RuleSetCache,
  ) {}

  async ingest(
    applicationId: string,
    ruleSetVersion: number,
    events: Record<string, unknown>[],
  ): Promise<IngestOutcome> {
    const matcher = await this.cache.matcherFor(applicationId, ruleSetVersion);
    const droppedBySlot = new Map<number, number>();
    const kept: EventToStore[] = [];
    const now = Date.now();
    for (const event of events) {
      const slot = matcher.match(event);
      if (slot === -1) kept.push({ occurredAt: eventTime(event, now), payload: event });
      else droppedBySlot.set(slot, (droppedBySlot.get(slot) ?? 0) + 1);
    }
    await this.events.insertBatch(applicationId, kept);
    if (droppedBySlot.size > 0) {
      await this.rules.addDiscarded(
        applicationId,
        new Map([...droppedBySlot].map(([slot, n]) => [matcher.ruleIds[slot], n])),
      );
    }
    return { accepted: kept.length, dropped: events.length - kept.length };
  }

  /** Stored events of an application in a time range (what the index serves); newest first. */
  storedEvents(applicationId: string, from: Date, to: Date, limit = 1000): Promise<Record<string, unknown>[]> {
    return this.events.between(applicationId, from, to, limit);
  }
}
