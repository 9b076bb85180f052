/**
 * HTTP load with autocannon: an optional warm-up run, then the measured run, reduced to the figures the
 * benchmarks report (req/s, p50/p99, failures and, given the server process, its CPU per request).
 */
import autocannon from 'autocannon';
import { ChildProcess } from 'node:child_process';
import { cpuSeconds } from './processes';

export interface Figures {
  label: string;
  /** Average requests per second of the measured run. */
  rps: number;
  p50: number;
  p99: number;
  /** non-2xx + connection errors + timeouts. */
  errors: number;
  total: number;
  /** Server CPU per request (ms), when `server` was given: independent of what the shared machine left us. */
  cpuMsPerRequest?: number;
}

export interface MeasureOptions {
  /** Seconds of the measured run. */
  duration: number;
  /** Seconds of an unmeasured run before it (0 or absent: none). */
  warmUp?: number;
  /** The process serving `url`, to measure its CPU time over the measured run. */
  server?: ChildProcess;
}

/** One measured autocannon run over `options` (its `duration` is set from `run`). */
export async function measure(
  label: string,
  options: autocannon.Options,
  run: MeasureOptions,
): Promise<Figures & { result: autocannon.Result }> {
  if (run.warmUp) await autocannon({ ...options, duration: run.warmUp });
  const cpuBefore = run.server ? cpuSeconds(run.server.pid) : NaN;
  const result = await autocannon({ ...options, duration: run.duration });
  const cpuMsPerRequest = run.server
    ? ((cpuSeconds(run.server.pid) - cpuBefore) * 1000) / result.requests.total
    : undefined;
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    cpuMsPerRequest,
    result,
  };
}

/** autocannon `requests` that POST a fresh JSON body (and headers) per request. */
export function jsonPosts(
  body: () => string,
  headers: () => Record<string, string> = () => ({}),
): autocannon.Request[] {
  return [
    {
      method: 'POST',
      setupRequest: (request) => ({
        ...request,
        body: body(),
        headers: { 'content-type': 'application/json', ...headers() },
      }),
    },
  ];
}

/** fetch + JSON: POST when `body` is given (else GET), throwing with the status and body on a 4xx/5xx. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function fetchJson(url: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${url}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}
