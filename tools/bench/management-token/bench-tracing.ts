/**
 * What tracing costs on POST /oauth/token (tools/bench/support/tracing-cost.ts: variants, options, report).
 *
 *   node -r @swc-node/register tools/bench/management-token/bench-tracing.ts [--ratios 0,0.1] [--processes 3] [--duration 3] [--warmup 5] [--rounds 6] [--connections 16] [--rate N] [--together] [--profile] [--perf DIR]
 */
import { benchTracingCost } from '../support/tracing-cost';
import { managementAppEnv, startManagementApp, tokenLoad } from './app';

benchTracingCost({
  name: 'mgmt',
  title: 'POST /oauth/token, no policy',
  env: ({ databaseUrl, redisPrefix }) => managementAppEnv({ databaseUrl, redisPrefix }),
  start: startManagementApp,
  load: tokenLoad,
});
