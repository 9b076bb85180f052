/**
 * Samples `GET /health` every 50 ms while an operation runs. A request waits for the service's event loop, so
 * the slowest answer is the longest stall the operation caused (plus one idle round trip, reported beside it).
 */
export interface HealthWatch {
  /** Stops sampling, waits for the requests in flight and returns what they measured. */
  stop(): Promise<HealthFigures>;
}

export interface HealthFigures {
  samples: number;
  /** Slowest /health answer in ms (a failed or non-200 answer counts with the time it took). */
  longestMs: number;
  failures: number;
}

export const SAMPLE_INTERVAL_MS = 50;

/** Starts sampling `${base}/health`; each request is sent on its own timer tick, never waiting for the last. */
export function watchHealth(base: string, intervalMs = SAMPLE_INTERVAL_MS): HealthWatch {
  const inFlight: Promise<void>[] = [];
  const figures: HealthFigures = { samples: 0, longestMs: 0, failures: 0 };
  const sample = async () => {
    const started = performance.now();
    let ok = false;
    try {
      const response = await fetch(`${base}/health`);
      await response.arrayBuffer();
      ok = response.status === 200;
    } catch {
      ok = false;
    }
    figures.samples += 1;
    if (!ok) figures.failures += 1;
    figures.longestMs = Math.max(figures.longestMs, performance.now() - started);
  };
  const timer = setInterval(() => inFlight.push(sample()), intervalMs);
  inFlight.push(sample());
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return figures;
    },
  };
}

/** The slowest of `count` sequential /health answers with nothing else running: the floor of any figure. */
export async function idleHealthMs(base: string, count = 20): Promise<number> {
  let longest = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await (await fetch(`${base}/health`)).arrayBuffer();
    longest = Math.max(longest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return longest;
}
