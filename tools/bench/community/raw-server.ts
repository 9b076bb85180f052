// Baseline for the community benchmark: node:http + pg + ioredis doing the same work as the two routes, no framework.
//  verify-email: the same two attempt-limiter calls (project-wide, then per project + client address: the same
//    Lua script through ioredis, as the app's RateLimiter sends it), the user the hex token names, the HMAC
//    digest, then the one statement that consumes that user's live token and marks the user verified.
//  device registration: HS256 JWT check with the same derived key and claims, body validation, one upsert.
// Started with `-r @swc-node/register` only so it can load the limiter's Lua text from the lib (no Nest code).
import { createHmac, createSecretKey } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import Redis from 'ioredis';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { FIXED_WINDOWS } from '../../../libs/platform/rate-limiting/src/lib/scripts';

const env = (name: string) => process.env[name] ?? '';
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: Number(process.env.POOL_SIZE ?? 10) });
const redis = new Redis(env('REDIS_URL'), { keyPrefix: `${env('REDIS_PREFIX')}:` }) as Redis & {
  fixedWindows(key: string, ...args: number[]): Promise<number[]>;
};
redis.defineCommand('fixedWindows', { numberOfKeys: 1, lua: FIXED_WINDOWS });
const projectId = env('PROJECT_ID');
const derive = (purpose: string) =>
  createHmac('sha256', env('COMMUNITY_AUTH_SECRET')).update(`community:${purpose}`).digest();
const verificationKey = derive('verification-token');
// A KeyObject, as the app holds it (bytes would make jsonwebtoken try to parse a PEM key on every call).
const accessKey = createSecretKey(derive('access-token'));
const attempts = {
  perMinute: Number(env('VERIFICATION_ATTEMPTS_PER_MINUTE')),
  perHour: Number(env('VERIFICATION_ATTEMPTS_PER_HOUR')),
  perProject: Number(env('VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR')),
};

type Answer = [number, unknown?];

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

const send = (response: ServerResponse, [status, body]: Answer) => {
  const json = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
};

const tooMany: Answer = [429, { error: 'Too many attempts.', code: 'auth/too-many-attempts' }];

async function verify(body: { token?: unknown }, address: string): Promise<Answer> {
  if (typeof body.token !== 'string' || body.token.length < 1 || body.token.length > 256)
    return [400, { error: 'token must be a string', code: 'request/invalid-body' }];
  const [projectAllowed] = await redis.fixedWindows(
    `rl:fw:community:verify-project:${projectId}`,
    1, // cost
    1, // commit (the script's peek flag)
    attempts.perProject,
    3600_000,
  );
  if (projectAllowed !== 1) return tooMany;
  const [allowed] = await redis.fixedWindows(
    `rl:fw:community:verify:${projectId}:${address}`,
    1, // cost
    1, // commit
    attempts.perMinute,
    60_000,
    attempts.perHour,
    3600_000,
  );
  if (allowed !== 1) return tooMany;
  const digest = createHmac('sha256', verificationKey).update(`${projectId}:${body.token}`).digest('hex');
  const user = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})[0-9a-f]{32}$/.exec(body.token);
  const { rows } = user
    ? await pool.query(
        `WITH claimant AS (
           SELECT u.id FROM "community"."users" u
            WHERE u.project_id = $1 AND ($2::uuid IS NULL OR u.id = $2::uuid) AND ($3::text IS NULL OR u.email = $3::text)
            LIMIT 1),
         consumed AS (
           UPDATE "community"."verification_tokens" t SET consumed_at = $5
            WHERE t.project_id = $1 AND t.user_id = (SELECT id FROM claimant) AND t.consumed_at IS NULL
              AND t.token_digest = $4 AND t.expires_at > $5
            RETURNING user_id),
         verified AS (
           UPDATE "community"."users" u SET is_verified = true, updated_at = now() FROM consumed
            WHERE u.project_id = $1 AND u.id = consumed.user_id)
         SELECT user_id FROM consumed`,
        [projectId, user.slice(1, 6).join('-'), null, digest, new Date()],
      )
    : { rows: [] };
  return rows[0]
    ? [200, { success: true }]
    : [400, { error: 'Invalid or expired token.', code: 'auth/invalid-or-expired-token' }];
}

const PLATFORMS = new Set(['ios', 'android']);

async function register(body: { platform?: unknown; token?: unknown }, authorization: string): Promise<Answer> {
  let userId: string | undefined;
  try {
    const claims = jwt.verify(authorization.replace(/^Bearer /, ''), accessKey, {
      algorithms: ['HS256'],
      audience: projectId,
      issuer: 'community-api',
    }) as jwt.JwtPayload;
    userId = claims.sub;
  } catch {
    userId = undefined;
  }
  if (!userId) return [401, { error: 'Unauthorized.', code: 'push-device/unauthorized' }];
  const keys = Object.keys(body);
  const valid =
    PLATFORMS.has(body.platform as string) &&
    typeof body.token === 'string' &&
    body.token.length >= 1 &&
    body.token.length <= 4096 &&
    keys.every((k) => k === 'platform' || k === 'token');
  if (!valid) return [400, { error: 'Invalid body.', code: 'push-device/invalid-body' }];
  // The app's statement: the same upsert within the 20-devices-per-user cap, in one round trip.
  const written = await pool.query(
    `INSERT INTO "community"."push_devices" (project_id, user_id, platform, device_key, p256dh, auth, last_seen_at)
     SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::timestamptz
      WHERE (SELECT count(*) FROM "community"."push_devices" WHERE project_id = $1 AND user_id = $2 AND device_key <> $4) < 20
     ON CONFLICT (project_id, device_key) DO UPDATE SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth, last_seen_at = EXCLUDED.last_seen_at, updated_at = now()
     RETURNING 1`,
    [projectId, userId, body.platform, body.token, null, null, new Date()],
  );
  if (written.rowCount !== 1) return [400, { error: 'Too many devices.', code: 'push-device/invalid-body' }];
  return [200];
}

const server = createServer(async (request, response) => {
  try {
    const text = await readBody(request);
    const body = text ? JSON.parse(text) : {};
    if (request.url === '/verify-email')
      return send(response, await verify(body, request.socket.remoteAddress ?? 'unknown'));
    if (request.url === '/devices') return send(response, await register(body, request.headers.authorization ?? ''));
    send(response, [404, { error: 'Not Found', code: 'route/not-found' }]);
  } catch (error) {
    send(response, [500, { error: String(error) }]);
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () =>
  server.close(() => void Promise.all([pool.end(), redis.quit()]).then(() => process.exit(0))),
);
