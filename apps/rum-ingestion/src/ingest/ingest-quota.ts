import { Injectable } from '@nestjs/common';
import { AppError, PlatformErrorCode } from '@acme/platform-errors';
import { RateLimitEnforcer } from '@acme/platform-rate-limiting';
import { RumEnv } from '../config/env';

/**
 * Per-application ingest quota (issue 25; apps/rum-ingestion/README.md "Ingest quota"): client tokens are public by
 * design, so each application's events/s and bytes/s are token buckets shared by every instance. A batch takes as
 * many tokens as it holds events (and bytes); over either, 429 RequestTooFrequently with Retry-After. Decided by the
 * one rate-limit path (RateLimitEnforcer): like the other request limits it fails open, counted and logged, while
 * Redis cannot answer; ingest is not a credential check.
 */
@Injectable()
export class IngestQuota {
  constructor(
    private readonly enforcer: RateLimitEnforcer,
    private readonly env: RumEnv,
  ) {}

  async take(applicationId: string, events: number, bytes: number): Promise<void> {
    const buckets = [
      {
        name: 'rum_ingest_events',
        key: `rum:ingest:events:${applicationId}`,
        perSecond: this.env.RUM_INGEST_EVENTS_PER_SECOND,
        cost: events,
      },
      {
        name: 'rum_ingest_bytes',
        key: `rum:ingest:bytes:${applicationId}`,
        perSecond: this.env.RUM_INGEST_BYTES_PER_SECOND,
        cost: bytes,
      },
    ];
    for (const bucket of buckets) {
      const decision = await this.enforcer.decide(bucket.name, {
        key: bucket.key,
        rule: {
          tokenBucket: {
            capacity: bucket.perSecond,
            refillPerSecond: bucket.perSecond,
            cost: Math.max(1, Math.min(bucket.cost, bucket.perSecond)),
          },
        },
      });
      if (decision && !decision.allowed)
        throw new AppError(PlatformErrorCode.RATE_LIMITED, 'rate_limited', 'Request too frequently.', {
          rateLimit: decision,
        });
    }
  }
}
