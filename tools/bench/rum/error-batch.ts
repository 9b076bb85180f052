/**
 * The RUM benches' batch: `size` error events over 7 services and 13 pages, whose error types cycle through three
 * per rule, so against rules made by `IN [Error<3n>]` (one per rule) about a third match one and are dropped.
 */
export function errorBatch(size: number, rules: number) {
  return Array.from({ length: size }, (_, i) => ({
    date: Date.now(),
    service: `svc-${i % 7}`,
    env: 'prod',
    error: {
      error_type: `Error${i % (rules * 3 || 1)}`,
      message: `something failed at step ${i}`,
      stack: 'at main (app.js:1:1)',
    },
    view: { url: `https://example.com/page${i % 13}` },
  }));
}
