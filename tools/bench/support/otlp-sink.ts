/**
 * A stand-in OTLP/HTTP collector for benchmarks with tracing on: accepts every export on a free local port, keeps
 * nothing but a count of exports and bytes.
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export async function startOtlpSink(): Promise<{
  url: string;
  stats: { exports: number; bytes: number };
  close(): void;
}> {
  const stats = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (stats.bytes += chunk.length));
    request.on('end', () => {
      stats.exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats, close: () => server.close() };
}
