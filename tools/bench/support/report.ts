/** Statistics and printing shared by the benchmarks (Markdown tables so figures paste into READMEs). */
import { cpus, loadavg } from 'node:os';
import type { Figures } from './load';

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] as number;

/** The arithmetic mean. */
export const mean = (values: number[]) => values.reduce((sum, x) => sum + x, 0) / values.length;

/** Half the width of the mean's 95 % confidence interval (normal approximation; 0 for fewer than two values). */
export function confidence95(values: number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  const variance = values.reduce((sum, x) => sum + (x - m) ** 2, 0) / (values.length - 1);
  return (1.96 * Math.sqrt(variance)) / Math.sqrt(values.length);
}

/** The value at fraction `p` (0..1) of the sorted list, clamped to its last element. */
export const percentile = (values: number[], p: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))] as number;

/** The run whose `key` is the median (its other figures with it). */
export function medianRun<T>(runs: T[], key: (run: T) => number): T {
  return [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)] as T;
}

export const ratio = (numerator: number, denominator: number, digits = 3) => (numerator / denominator).toFixed(digits);

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `load average a b c on N cores`, for judging a run on a shared machine. */
export const machineLine = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} on ${cpus().length} cores`;

/** A Markdown table (first column left-aligned, the others right-aligned), each line ending in a newline. */
export function markdownTable(columns: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |\n`;
  return line(columns) + `|---|${'---:|'.repeat(columns.length - 1)}\n` + rows.map(line).join('');
}

/** handler | req/s | p50 ms | p99 ms | non-2xx/errors, one row per run. */
export const figuresTable = (rows: Figures[]) =>
  markdownTable(
    ['handler', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/errors'],
    rows.map((f) => [f.label, f.rps.toFixed(0), f.p50, f.p99, f.errors]),
  );

/** Throughput and p99 ratios of an app run against its raw baseline. */
export const ratioLine = (raw: Figures, app: Figures) =>
  `throughput ratio (app / raw): ${ratio(app.rps, raw.rps)}; p99 ratio (app / raw): ${ratio(app.p99, raw.p99)}`;

/** Runs `fn` and returns its value with the wall-clock milliseconds it took. */
export async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}
