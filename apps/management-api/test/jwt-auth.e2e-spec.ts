import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AUDIENCE, ISSUER, ManagementApp, SIGNING_KEY_PEM, startManagement } from './support';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('bearer JWT verification and scopes on /api/v2', () => {
  let app: ManagementApp;
  let kid: string;
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (extra: Record<string, unknown> = {}) => ({
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'attacker@clients',
    azp: 'attacker',
    scope: 'read:rate_limit_policies',
    gty: 'client-credentials',
    iat: now(),
    exp: now() + 600,
    ...extra,
  });
  const sign = (payload: object, key = SIGNING_KEY_PEM, headerKid = kid) =>
    jwt.sign(payload, key, { algorithm: 'RS256', keyid: headerKid });

  beforeAll(async () => {
    app = await startManagement({ env: { MANAGEMENT_SIGNING_KEY: SIGNING_KEY_PEM } });
    kid = ((await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys[0]
      .kid;
  });
  afterAll(async () => app?.close());

  const call = (authorization?: string) =>
    fetch(`${app.url}/api/v2/rate-limit-policies`, { headers: authorization ? { authorization } : {} });

  async function expect401(authorization: string | undefined, message: string, errorCode: string) {
    const response = await call(authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message, errorCode });
  }

  it('accepts a token it signed for the management audience', async () => {
    expect((await call(`Bearer ${sign(claims())}`)).status).toBe(200);
  });

  it('answers Invalid token when the header is absent, not Bearer, or the token is malformed', async () => {
    await expect401(undefined, 'Invalid token', 'invalid_token');
    await expect401('Basic abc', 'Invalid token', 'invalid_token');
    await expect401('Bearer not.a.jwt', 'Invalid token', 'invalid_token');
    await expect401('Bearer ', 'Invalid token', 'invalid_token');
  });

  it('answers Invalid token for an expired token and for another issuer', async () => {
    await expect401(
      `Bearer ${sign(claims({ iat: now() - 7200, exp: now() - 3600 }))}`,
      'Invalid token',
      'invalid_token',
    );
    await expect401(`Bearer ${sign(claims({ iss: 'https://evil.test/' }))}`, 'Invalid token', 'invalid_token');
  });

  it('answers Client is not global for a token of this tenant issued for another audience', async () => {
    await expect401(
      `Bearer ${sign(claims({ aud: 'https://tenant.test/userinfo' }))}`,
      'Client is not global',
      'client_not_global',
    );
  });

  it('answers Invalid signature for alg none, another key, and HS256 signed with the public key', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(claims())}.`;
    await expect401(`Bearer ${unsigned}`, 'Invalid signature', 'invalid_signature');

    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    await expect401(`Bearer ${sign(claims(), otherKey)}`, 'Invalid signature', 'invalid_signature');
    await expect401(`Bearer ${sign(claims(), otherKey, 'unknown-kid')}`, 'Invalid signature', 'invalid_signature');

    const publicPem = createPublicKey(createPrivateKey(SIGNING_KEY_PEM))
      .export({ format: 'pem', type: 'spki' })
      .toString();
    const header = b64({ alg: 'HS256', typ: 'JWT', kid });
    const body = b64(claims());
    const { createHmac } = await import('node:crypto');
    const mac = createHmac('sha256', publicPem).update(`${header}.${body}`).digest('base64url');
    await expect401(`Bearer ${header}.${body}.${mac}`, 'Invalid signature', 'invalid_signature');

    const tampered = sign(claims()).split('.');
    tampered[1] = b64(claims({ scope: 'delete:rate_limit_policies' }));
    await expect401(`Bearer ${tampered.join('.')}`, 'Invalid signature', 'invalid_signature');
  });

  it.each([
    ['GET', '/rate-limit-policies', 'read:rate_limit_policies'],
    ['POST', '/rate-limit-policies', 'create:rate_limit_policies'],
    ['GET', '/rate-limit-policies/rlp_x', 'read:rate_limit_policies'],
    ['PATCH', '/rate-limit-policies/rlp_x', 'update:rate_limit_policies'],
    ['DELETE', '/rate-limit-policies/rlp_x', 'delete:rate_limit_policies'],
    ['GET', '/clients', 'read:clients'],
    ['POST', '/clients', 'create:clients'],
    ['GET', '/clients/abc', 'read:clients'],
    ['DELETE', '/clients/abc', 'delete:clients'],
    ['GET', '/client-grants', 'read:client_grants'],
    ['POST', '/client-grants', 'create:client_grants'],
    ['GET', '/client-grants/cgr_x', 'read:client_grants'],
    ['DELETE', '/client-grants/cgr_x', 'delete:client_grants'],
  ])('%s %s requires %s (403 otherwise)', async (method, path, scope) => {
    const others =
      'read:clients create:clients delete:clients read:client_grants create:client_grants delete:client_grants read:rate_limit_policies create:rate_limit_policies update:rate_limit_policies delete:rate_limit_policies'
        .split(' ')
        .filter((s) => s !== scope)
        .join(' ');
    const response = await fetch(`${app.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${sign(claims({ scope: others }))}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: `Insufficient scope, expected any of: ${scope}`,
      errorCode: 'insufficient_scope',
    });
    const allowed = await fetch(`${app.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${sign(claims({ scope }))}` },
    });
    expect(allowed.status).not.toBe(403);
    expect(allowed.status).not.toBe(401);
  });

  it('issues tokens that are down-scoped end to end', async () => {
    const readOnly = await app.token('read:rate_limit_policies');
    expect((await app.api('/rate-limit-policies', { token: readOnly })).status).toBe(200);
    const denied = await app.api('/rate-limit-policies/rlp_x', { token: readOnly, method: 'DELETE' });
    expect(denied.status).toBe(403);
  });
});
