import type { Processes } from '../support/processes';

/** One heavy request (or burst) the benchmark times while it samples the service's /health. */
export interface Operation {
  name: string;
  service: string;
  /** Untimed preparation of one round (fresh rows, so rounds do not collide). */
  prepare?: () => Promise<void>;
  /** The timed work; throws if the service's answer is wrong. */
  run: () => Promise<void>;
  /** Untimed, after the round: a baseline for the same work (e.g. raw SQL), given the round's ms; a note for the log. */
  compare?: (runMs: number) => Promise<string>;
}

/** A started service and the operations it serves. */
export interface ServiceUnderTest {
  base: string;
  operations: Operation[];
}

export interface ServiceContext {
  processes: Processes;
  /** Everything to release when the run ends (databases, Redis prefixes, clients). */
  cleanups: Array<() => Promise<void>>;
}

/** `fetch` with a JSON body that throws unless the status is `expected`; answers the parsed body. */
export async function expectJson(
  url: string,
  init: { method?: string; body?: string | unknown; headers?: Record<string, string> },
  expected: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields its route answers
): Promise<any> {
  const body = init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const response = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: body as string | undefined,
  });
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(
      `${init.method ?? 'POST'} ${url}: ${response.status} (expected ${expected}): ${text.slice(0, 300)}`,
    );
  return text ? JSON.parse(text) : undefined;
}
