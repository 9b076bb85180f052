// The raw baseline: a minimal node:http client-credentials endpoint that checks the same client secret
// (HMAC-SHA-256 digest, constant-time compare) and signs the same RS256 JWT with node:crypto.
// RAW_SIGN=async signs on libuv's thread pool as the app does (sign's callback form); default: on the event loop.
// LIMITER_LUA (with REDIS_URL, REDIS_PREFIX): one call of that token-bucket script per token before signing, the
// limiter's own cost with nothing around it (the floor of a block policy's overhead).
import { createHash, createHmac, createPrivateKey, sign, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import Redis from 'ioredis';

const { RAW_SIGN, PORT, CLIENT_ID, SECRET_DIGEST, HMAC_KEY, SIGNING_KEY, KID, ISSUER, AUDIENCE, SCOPE, TTL } =
  process.env;
const { LIMITER_LUA, REDIS_URL, REDIS_PREFIX } = process.env;
const limiter = LIMITER_LUA ? new Redis(REDIS_URL, { keyPrefix: `${REDIS_PREFIX}:raw:` }) : undefined;
limiter?.defineCommand('take', { numberOfKeys: 1, lua: LIMITER_LUA });
const key = createPrivateKey(SIGNING_KEY);
const ttl = Number(TTL);
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = b64({ alg: 'RS256', typ: 'JWT', kid: KID });
const sha = (text) => createHash('sha256').update(text).digest();

function fail(res, status, error) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error, error_description: error }));
}

createServer((req, res) => {
  if (req.method !== 'POST' || !req.url.startsWith('/oauth/token')) return fail(res, 404, 'not_found');
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return fail(res, 400, 'invalid_request');
    }
    if (body.grant_type !== 'client_credentials') return fail(res, 400, 'unsupported_grant_type');
    const digest = createHmac('sha256', HMAC_KEY).update(String(body.client_secret)).digest('hex');
    if (body.client_id !== CLIENT_ID || !timingSafeEqual(sha(digest), sha(SECRET_DIGEST)))
      return fail(res, 401, 'invalid_client');
    if (body.audience !== AUDIENCE) return fail(res, 403, 'access_denied');
    if (!limiter) return issue();
    limiter.take(`rl:tb:${CLIENT_ID}`, 10000, 10000, 1).then(
      ([admitted]) => (Number(admitted) === 1 ? issue() : fail(res, 429, 'too_many_requests')),
      () => fail(res, 500, 'server_error'),
    );
  });

  function issue() {
    const iat = Math.floor(Date.now() / 1000);
    const payload = b64({
      scope: SCOPE,
      gty: 'client-credentials',
      azp: CLIENT_ID,
      iat,
      exp: iat + ttl,
      aud: AUDIENCE,
      iss: ISSUER,
      sub: `${CLIENT_ID}@clients`,
    });
    const answer = (signature) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        pragma: 'no-cache',
      });
      res.end(
        JSON.stringify({
          access_token: `${header}.${payload}.${signature.toString('base64url')}`,
          token_type: 'Bearer',
          expires_in: ttl,
          scope: SCOPE,
        }),
      );
    };
    const input = Buffer.from(`${header}.${payload}`);
    if (RAW_SIGN !== 'async') return answer(sign('sha256', input, key));
    sign('sha256', input, key, (error, signature) => (error ? fail(res, 500, 'server_error') : answer(signature)));
  }
}).listen(Number(PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
