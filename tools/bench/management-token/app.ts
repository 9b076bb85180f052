/**
 * The management API as the token benches run it: from sources, with a bootstrap client whose credentials the
 * bench knows, a fresh signing key, and the instance-wide limit out of the way.
 */
import { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { REDIS_URL } from '../support/database';
import { Processes, SERVICE_NODE_FLAGS } from '../support/processes';

export const PUBLIC_URL = 'https://bench.management.test';
export const AUDIENCE = `${PUBLIC_URL}/api/v2/`;
export const CLIENT_ID = 'bench-client';
/** Shared by every app process of a run (and the raw baselines), so their tokens match. */
export const CLIENT_SECRET = randomBytes(32).toString('base64url');
export const HMAC_KEY = randomBytes(24).toString('hex');
export const SIGNING_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

export const tokenBody = JSON.stringify({
  grant_type: 'client_credentials',
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
  audience: AUDIENCE,
});

export function managementAppEnv(options: { databaseUrl: string; redisPrefix: string }): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: options.redisPrefix,
    PUBLIC_URL,
    LOG_LEVEL: 'warn',
    MANAGEMENT_SIGNING_KEY: SIGNING_KEY,
    MANAGEMENT_CLIENT_SECRET_KEY: HMAC_KEY,
    MANAGEMENT_BOOTSTRAP_CLIENT_ID: CLIENT_ID,
    MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: CLIENT_SECRET,
    MANAGEMENT_RATE_LIMIT_PER_SECOND: '1000000',
  };
}

/** `apps/management-api/src/main.ts` with the services' V8 flags, `nodeArgs` (e.g. a profiler's) before it. */
export function startManagementApp(
  processes: Processes,
  nodeArgs: string[],
  env: Record<string, string>,
): ChildProcess {
  return processes.start(
    [...SERVICE_NODE_FLAGS, ...nodeArgs, '-r', '@swc-node/register', 'apps/management-api/src/main.ts'],
    env,
  );
}

/** autocannon's options for POST /oauth/token as the bench client, over `connections` connections. */
export const tokenLoad = (base: string, connections: number) => ({
  url: `${base}/oauth/token`,
  method: 'POST' as const,
  headers: { 'content-type': 'application/json' },
  body: tokenBody,
  connections,
});
