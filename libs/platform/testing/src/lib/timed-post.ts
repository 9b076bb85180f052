import { request as httpRequest } from 'node:http';

export interface TimedAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Milliseconds from sending to the answer's status line and headers. */
  ms: number;
}

/**
 * A POST with Content-Length (or chunked), timed until the answer's head arrives. The server may answer before
 * reading the body (a body over its limit, a caller its guard refuses); an EPIPE or reset while still sending is
 * then expected, and the answer is what counts.
 */
export function timedPost(
  url: string,
  body: Buffer | string,
  options: { headers?: Record<string, string>; chunked?: boolean } = {},
): Promise<TimedAnswer> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.chunked ? {} : { 'content-length': String(bytes.length) }),
          ...options.headers,
        },
      },
      (response) => {
        const ms = performance.now() - started;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, ms });
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (!options.chunked) return void request.end(bytes);
    for (let offset = 0; offset < bytes.length; offset += 64 * 1024)
      request.write(bytes.subarray(offset, offset + 64 * 1024));
    request.end();
  });
}

/** `{"data":[{},{},…]}` of about `bytes` bytes: millions of JSON nodes for three bytes each (issue 25). */
export function emptyObjectsBody(bytes: number): Buffer {
  const count = Math.floor((bytes - 10) / 3);
  return Buffer.from(`{"data":[${'{},'.repeat(count - 1)}{}]}`);
}

export const rssMegabytes = () => process.memoryUsage().rss / 1024 ** 2;

/**
 * The bound on answering an oversized or anonymous body without reading it. 100 ms is the aim (docs/security.md);
 * CI shares the machine with every other suite: 0.5-0.9 s at load 28 on 2 cores, once 1.8 s (a guard's database
 * lookup queued behind the other suites). Reading and parsing the body instead shows in the RSS bound beside it.
 */
export const UNREAD_BODY_ANSWER_MS = 4000;
