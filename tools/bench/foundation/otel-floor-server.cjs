// The bare server of otel-floor.ts: reads a JSON body and answers a device-sized JSON. With OTEL_FLOOR_TRACE=1 the
// OpenTelemetry Node SDK runs first with the http instrumentation alone (the sampler comes from the OTEL_* variables
// the bench sets). Ended spans go to a processor that drops them: no OTEL_* setting does that (the SDK takes
// OTEL_BSP_MAX_QUEUE_SIZE=0 as invalid and keeps its 2048), and the export is measured apart.
if (process.env.OTEL_FLOOR_TRACE === '1') {
  const { NodeSDK } = require('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
  const dropAtEnd = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
  new NodeSDK({ instrumentations: [new HttpInstrumentation()], spanProcessors: [dropAtEnd] }).start();
}
const http = require('node:http');

const answer = JSON.stringify({ id: '3f1c2d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f', token: 'x'.repeat(64), platform: 'ios' });
http
  .createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.setHeader('content-type', 'application/json');
      response.end(answer);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
