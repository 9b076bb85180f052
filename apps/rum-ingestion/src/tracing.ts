// The first import of main.ts, so the instrumentations hook http, express, pg and ioredis before they load.
import { startTracingFromEnv } from '@acme/platform-observability/tracing';

startTracingFromEnv(process.env);
