// What a limiter decides, and the two kinds of limit it decides on.

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the limit is fully available again. */
  resetAt: number;
  /** Seconds until a refused request could succeed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface TokenBucketLimit {
  /** Burst size; `0` refuses everything. */
  capacity: number;
  refillPerSecond: number;
  cost?: number;
}

export interface WindowLimit {
  limit: number;
  windowSeconds: number;
}
