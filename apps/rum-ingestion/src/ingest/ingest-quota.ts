import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '@acme/platform-errors';
import { RateLimiter, rateLimitHeaders } from '@acme/platform-rate-limiting';
import { RumEnv } from '../config/env';

/**
 * Per-application ingest quota (issue 25; apps/rum-ingestion/README.md "Ingest quota"): client tokens are public by
 * design, so each application's events/s and bytes/s are token buckets shared by every instance. A batch takes as
 * many tokens as it holds events (and bytes); over either, 429 RequestTooFrequently with Retry-After. Like the
 * other request limits it fails open while Redis cannot answer (logged): ingest is not a credential check.
 */
@Injectable()
export class IngestQuota {
  private readonly logger = new Logger(IngestQuota.name);

  constructor(
    private readonly limiter: RateLimiter,
    private readonly env: RumEnv,
  ) {}

  async take(applicationId: string, events: number, bytes: number): Promise<void> {
    const buckets = [
      { key: `rum:ingest:events:${applicationId}`, perSecond: this.env.RUM_INGEST_EVENTS_PER_SECOND, cost: events },
      { key: `rum:ingest:bytes:${applicationId}`, perSecond: this.env.RUM_INGEST_BYTES_PER_SECOND, cost: bytes },
    ];
    for (const bucket of buckets) {
      let decision;
      try {
        decision = await this.limiter.tokenBucket(bucket.key, {
          capacity: bucket.perSecond,
          refillPerSecond: bucket.perSecond,
          cost: Math.max(1, Math.min(bucket.cost, bucket.perSecond)),
        });
      } catch (error) {
        this.logger.warn({ applicationId, error: (error as Error).message }, 'rum_ingest_quota_fail_open');
        return;
      }
      if (!decision.allowed)
        throw new AppError('RATE_LIMITED', 'rate_limited', 'Request too frequently.', {
          headers: rateLimitHeaders(decision),
        });
    }
  }
}
