// Baseline for the community benchmark: node:http + pg doing the same work as the two routes, no framework:
// verify-email (HMAC digest, consume + consume siblings + mark verified in one statement) and device
// registration (HS256 JWT check with the same key, validation, one upsert).
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import jwt from 'jsonwebtoken';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const projectId = process.env.PROJECT_ID;
const derive = (purpose) => createHmac('sha256', process.env.COMMUNITY_AUTH_SECRET).update(`community:${purpose}`).digest();
const verificationKey = derive('verification-token');
const accessKey = derive('access-token');

const readBody = (request) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (c) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
const send = (response, status, body) => {
  const json = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  response.end(json);
};

async function verify(body) {
  const digest = createHmac('sha256', verificationKey).update(`${projectId}:${body.token}`).digest('hex');
  const { rows } = await pool.query(
    `WITH consumed AS (
       UPDATE "community"."verification_tokens" SET consumed_at = $3
        WHERE project_id = $1 AND token_digest = $2 AND consumed_at IS NULL AND expires_at > $3
        RETURNING id, user_id),
     siblings AS (
       UPDATE "community"."verification_tokens" t SET consumed_at = $3 FROM consumed
        WHERE t.project_id = $1 AND t.user_id = consumed.user_id AND t.consumed_at IS NULL AND t.id <> consumed.id),
     verified AS (
       UPDATE "community"."users" u SET is_verified = true, updated_at = now() FROM consumed
        WHERE u.project_id = $1 AND u.id = consumed.user_id)
     SELECT user_id FROM consumed`,
    [projectId, digest, new Date()],
  );
  return rows[0] ? [200, { success: true }] : [400, { error: 'Invalid or expired token.', code: 'auth/invalid-or-expired-token' }];
}

async function register(body, authorization) {
  let userId;
  try {
    userId = jwt.verify(authorization.replace(/^Bearer /, ''), accessKey, { algorithms: ['HS256'], audience: projectId, issuer: 'community-api' }).sub;
  } catch {
    return [401, { error: 'unauthorized', code: 'push-device/unauthorized' }];
  }
  if (!['ios', 'android'].includes(body.platform) || typeof body.token !== 'string') return [400, { error: 'invalid', code: 'push-device/invalid-body' }];
  await pool.query(
    `INSERT INTO "community"."push_devices" (project_id, user_id, platform, device_key, p256dh, auth, last_seen_at) VALUES ($1, $2, $3, $4, NULL, NULL, $5)
     ON CONFLICT (project_id, device_key) DO UPDATE SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth, last_seen_at = EXCLUDED.last_seen_at, updated_at = now()`,
    [projectId, userId, body.platform, body.token, new Date()],
  );
  return [200, undefined];
}

const server = createServer(async (request, response) => {
  try {
    const body = JSON.parse((await readBody(request)) || '{}');
    if (request.url === '/verify-email') return send(response, ...(await verify(body)));
    if (request.url === '/devices') return send(response, ...(await register(body, request.headers.authorization ?? '')));
    send(response, 404, { error: 'Not Found', code: 'route/not-found' });
  } catch (error) {
    send(response, 500, { error: String(error) });
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
