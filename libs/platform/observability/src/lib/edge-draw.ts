/**
 * The root sampling draw at the http edge, taken per slot of arrivals instead of per request (docs/operations.md,
 * Tracing → Sampling in slots).
 *
 * A slot ends after 500 ms or after 64 requests, whichever comes first, and each slot is traced with
 * probability `ratio`. The cut depends only on arrival times and counts, never on the draw, and the draws are
 * independent, so every request is traced with probability `ratio` whatever its timing (a periodic client
 * included). Traced requests then come in runs, and a traced request that follows another finds the SDK's code and
 * data warm: at 10 % a traced request cost the token route's main thread 2.5 times less in runs than drawn alone,
 * community's device route 2.7 times less.
 *
 * The request cap bounds a run's spans against the batch processor's queue (`OTEL_BSP_MAX_QUEUE_SIZE`, 2048 by
 * default; 64 ingest batches are about 420 spans). A service answering fewer than about two requests a second sees
 * about one request per slot: it is sampled request by request. 500 ms, not 100: longer runs cost less per traced
 * request, most on routes with few requests a second (ingest at 50/s: five batches a run at 100 ms; docs/operations.md,
 * Tracing → Sampling in slots).
 */
export interface EdgeDrawOptions {
  ratio: number;
  /** Milliseconds on a monotonic clock. */
  now?: () => number;
  /** Uniform in [0, 1). */
  random?: () => number;
}

const EDGE_SLOT_MS = 500;
/** Also the run length the tracing benches trace in a row (tools/bench/support/tracing-phases.ts). */
export const EDGE_SLOT_REQUESTS = 64;

/** A function called once per incoming root request; true when that request is traced. */
export function edgeDraw({
  ratio,
  now = () => performance.now(),
  random = Math.random,
}: EdgeDrawOptions): () => boolean {
  // No slot yet: `left` is 0, so the first request opens one.
  let slotEnds = 0;
  let left = 0;
  let traced = false;
  return () => {
    const at = now();
    if (left === 0 || at >= slotEnds) {
      slotEnds = at + EDGE_SLOT_MS;
      left = EDGE_SLOT_REQUESTS;
      traced = random() < ratio;
    }
    left -= 1;
    return traced;
  };
}
