import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Registry } from 'prom-client';

/** Upper bounds (seconds) of the Prometheus buckets the event-loop delay is folded into. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const WINDOW_MS = 5000;

/**
 * The process's event-loop delay, from `perf_hooks.monitorEventLoopDelay` (one monitor per process: it measures
 * the process, whatever app instances share it). Every 5 s, and at each scrape, the monitor's samples are folded
 * into cumulative Prometheus buckets and it restarts, so `recentMs()` always speaks of the last few seconds: the
 * overload decision reads it (docs/operations.md, "busy").
 */
class EventLoopDelay {
  private readonly monitor = monitorEventLoopDelay({ resolution: 20 });
  private readonly counts = BUCKETS.map(() => 0);
  private total = 0;
  private sumSeconds = 0;
  private lastWindowP99Ms = 0;

  constructor() {
    this.monitor.enable();
    setInterval(() => this.fold(), WINDOW_MS).unref();
  }

  /** The 99th percentile of the delay over the current and last window, in milliseconds. */
  recentMs(): number {
    const current = this.monitor.count > 0 ? this.monitor.percentile(99) / 1e6 : 0;
    return Math.round(Math.max(current, this.lastWindowP99Ms));
  }

  /** Adds the monitor's samples to the cumulative buckets (from its percentile table) and restarts it. */
  fold(): void {
    const samples = this.monitor.count;
    if (samples > 0) {
      const table = [...this.monitor.percentiles.entries()].map(([percentile, ns]) => [percentile, ns / 1e9]);
      BUCKETS.forEach((bound, index) => {
        const below = table.filter(([, seconds]) => seconds <= bound).pop()?.[0] ?? 0;
        this.counts[index] += Math.round((samples * below) / 100);
      });
      this.total += samples;
      this.sumSeconds += (this.monitor.mean / 1e9) * samples;
      this.lastWindowP99Ms = this.monitor.percentile(99) / 1e6;
    } else this.lastWindowP99Ms = 0;
    this.monitor.reset();
  }

  /** A prom-client metric (`get()`) publishing the histogram. */
  metric(name: string) {
    return {
      name,
      help: 'Event-loop delay (perf_hooks.monitorEventLoopDelay, 20 ms resolution)',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        this.fold();
        const values = BUCKETS.map((bound, index) => ({
          metricName: `${name}_bucket`,
          labels: { le: String(bound) },
          value: this.counts[index],
        }));
        values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf' }, value: this.total });
        return {
          name,
          help: 'Event-loop delay',
          type: 'histogram',
          aggregator: 'sum',
          values: [
            ...values,
            { metricName: `${name}_sum`, labels: {}, value: this.sumSeconds },
            { metricName: `${name}_count`, labels: {}, value: this.total },
          ],
        };
      },
    };
  }
}

let instance: EventLoopDelay | undefined;

/** The process's monitor, started on first use. */
export function eventLoopDelay(): EventLoopDelay {
  return (instance ??= new EventLoopDelay());
}

/** Publishes `nodejs_eventloop_delay_seconds` (a histogram) on `registry`. */
export function registerEventLoopDelay(registry: Registry): void {
  registry.registerMetric(eventLoopDelay().metric('nodejs_eventloop_delay_seconds') as never);
}
