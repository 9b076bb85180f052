import type { RedisClient } from '@acme/platform-redis';

const WINDOW_MS = 60_000;

/**
 * "At most one log line a minute per client and policy", across every instance: the first instance to
 * claim the minute in Redis logs. A local memo spares Redis the claim while this instance knows it is taken.
 */
export class ExcessLogThrottle {
  private readonly known = new Map<string, number>();

  constructor(
    private readonly redis: RedisClient,
    private readonly windowMs = WINDOW_MS,
  ) {}

  async claim(policyId: string, clientId: string): Promise<boolean> {
    const key = `${policyId}:${clientId}`;
    const now = Date.now();
    if ((this.known.get(key) ?? 0) > now) return false;
    this.known.set(key, now + this.windowMs);
    if (this.known.size > 10_000) this.prune(now);
    try {
      return (await this.redis.set(`policy-excess-log:${key}`, '1', 'PX', this.windowMs, 'NX')) === 'OK';
    } catch {
      // Redis unavailable: the local memo still caps this instance at one line a minute.
      return true;
    }
  }

  private prune(now: number): void {
    for (const [key, until] of this.known) if (until <= now) this.known.delete(key);
  }
}
