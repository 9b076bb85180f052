// Light entry for each app's src/tracing.ts, the first import of its main.ts: it loads lib/tracing and its own small
// modules only (no Nest, no pino, nothing instrumented), so the app can start OpenTelemetry before http, express, pg
// or ioredis load.
// No side effects: the app passes its own environment (libraries read no process.env).
export { shutdownTracing, startTracingFromEnv } from './lib/tracing';
