// Side-effect entry, the first import of every app's main.ts: starts OpenTelemetry before any instrumented module
// (http, express, pg, ioredis) loads, when OTEL_* asks for it (lib/tracing.ts). Imports nothing else.
import { startTracingFromEnv } from './lib/tracing';

startTracingFromEnv();
