// A stand-in OTLP/HTTP collector for benchmarks with tracing on: accepts every export, counts the bytes, keeps
// nothing. `node tools/bench/support/otlp-sink.mjs [port]` (default 4318), then run a bench with e.g.
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_TRACES_SAMPLER=parentbased_traceidratio \
//   OTEL_TRACES_SAMPLER_ARG=0.1 node -r @swc-node/register tools/bench/management-token/bench-token.ts ...
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 4318);
let exports = 0;
let bytes = 0;
createServer((request, response) => {
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => {
    exports += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}).listen(port, '127.0.0.1', () => process.stdout.write(`otlp sink on ${port}\n`));
process.on('SIGTERM', () => {
  process.stdout.write(`otlp sink: ${exports} exports, ${bytes} bytes\n`);
  process.exit(0);
});
