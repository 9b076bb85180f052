/**
 * A stand-in OTLP/HTTP collector for benchmarks with tracing on: accepts every export on a free local port and keeps
 * a count of exports and bytes; JSON exports (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) also have their spans counted by
 * name, so a report can say what one traced request produced.
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

interface OtlpJson {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<{ name: string }> }> }>;
}

export interface OtlpSinkStats {
  exports: number;
  bytes: number;
  /** Spans per name, from JSON exports only. */
  spans: Map<string, number>;
}

export async function startOtlpSink(): Promise<{ url: string; stats: OtlpSinkStats; close(): void }> {
  const stats: OtlpSinkStats = { exports: 0, bytes: 0, spans: new Map() };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    const json = request.headers['content-type']?.includes('json') === true;
    request.on('data', (chunk: Buffer) => {
      stats.bytes += chunk.length;
      if (json) chunks.push(chunk);
    });
    request.on('end', () => {
      stats.exports += 1;
      if (json) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson;
        for (const span of (body.resourceSpans ?? []).flatMap((r) =>
          (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []),
        ))
          stats.spans.set(span.name, (stats.spans.get(span.name) ?? 0) + 1);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats, close: () => server.close() };
}

/** `name ×count` of the spans a JSON sink received, most frequent first; empty for protobuf exports. */
export function spanCounts(stats: OtlpSinkStats): string {
  return [...stats.spans]
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ×${count}`)
    .join(', ');
}

/** The environment that turns a service's tracing on at `ratio` (root draw at the edge), exporting to `sinkUrl`. */
export const sampledTracingEnv = (sinkUrl: string, ratio: string): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: ratio,
});
