import { createPublicKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AUDIENCE, BOOTSTRAP, ISSUER, ManagementApp, startManagement } from './support';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('POST /oauth/token', () => {
  let app: ManagementApp;
  beforeAll(async () => {
    app = await startManagement();
  });
  afterAll(async () => app?.close());

  const post = (body: string | Record<string, unknown>, headers: Record<string, string> = {}, path = '/oauth/token') =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const valid = {
    grant_type: 'client_credentials',
    client_id: BOOTSTRAP.clientId,
    client_secret: BOOTSTRAP.clientSecret,
    audience: AUDIENCE,
  };

  it('issues an RS256 token with the documented claims, verifiable with the JWKS', async () => {
    const response = await post(valid);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as {
      access_token: string;
      token_type: string;
      expires_in: number;
      scope: string;
    };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 86400 });
    expect(body.scope.split(' ')).toContain('read:rate_limit_policies');
    const jwks = (await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as {
      keys: Array<Record<string, string>>;
    };
    // The current key and the next one, published ahead of rotation.
    expect(jwks.keys).toHaveLength(2);
    const header = jwt.decode(body.access_token, { complete: true })!.header;
    const signing = jwks.keys.find((jwk) => jwk['kid'] === header.kid)!;
    expect(header).toMatchObject({ alg: 'RS256', kid: signing.kid });
    const key = createPublicKey({ key: signing as never, format: 'jwk' });
    const claims = jwt.verify(body.access_token, key, { algorithms: ['RS256'] }) as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: ISSUER,
      sub: `${BOOTSTRAP.clientId}@clients`,
      aud: AUDIENCE,
      azp: BOOTSTRAP.clientId,
      gty: 'client-credentials',
      scope: body.scope,
    });
    expect(Number(claims['exp']) - Number(claims['iat'])).toBe(86400);
  });

  it('accepts form encoding, HTTP Basic and the trailing-slash path', async () => {
    const basic = Buffer.from(
      `${encodeURIComponent(BOOTSTRAP.clientId)}:${encodeURIComponent(BOOTSTRAP.clientSecret)}`,
    ).toString('base64');
    const response = await post(
      form({ grant_type: 'client_credentials', audience: AUDIENCE }),
      { authorization: `Basic ${basic}` },
      '/oauth/token/',
    );
    expect(response.status).toBe(200);
    const viaForm = await post(form(valid), {}, '/oauth/token/');
    expect(viaForm.status).toBe(200);
  });

  it('down-scopes to the requested subset of granted scopes', async () => {
    const response = await post({ ...valid, scope: 'read:rate_limit_policies unknown:thing' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { scope: string }).scope).toBe('read:rate_limit_policies');
    const none = await post({ ...valid, scope: 'unknown:thing' });
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ error: 'access_denied' });
  });

  it.each([
    ['missing grant_type', { ...valid, grant_type: undefined }, 400, 'invalid_request'],
    ['another grant type', { ...valid, grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['no credentials', { grant_type: 'client_credentials', audience: AUDIENCE }, 400, 'invalid_request'],
    ['a wrong secret', { ...valid, client_secret: 'nope' }, 401, 'invalid_client'],
    ['an unknown client', { ...valid, client_id: 'nobody' }, 401, 'invalid_client'],
    ['a missing audience', { ...valid, audience: undefined }, 400, 'invalid_request'],
    ['another audience', { ...valid, audience: 'https://other.test/api/v2/' }, 403, 'access_denied'],
    ['a non-string field', { ...valid, scope: ['a'] }, 400, 'invalid_request'],
    [
      'a client assertion together with a secret',
      {
        ...valid,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: 'a.b.c',
      },
      400,
      'invalid_request',
    ],
    [
      'a malformed client assertion',
      {
        grant_type: 'client_credentials',
        audience: AUDIENCE,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: 'a.b.c',
      },
      401,
      'invalid_client',
    ],
    [
      'another client assertion type',
      {
        grant_type: 'client_credentials',
        audience: AUDIENCE,
        client_assertion_type: 'saml',
        client_assertion: 'a.b.c',
      },
      400,
      'invalid_request',
    ],
  ])('answers %s with an OAuth error', async (_label, body, status, error) => {
    const response = await post(body as Record<string, unknown>);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    const payload = (await response.json()) as Record<string, unknown>;
    expect(payload).toEqual({ error, error_description: expect.any(String) });
  });

  it('ignores parameters it does not know (RFC 6749 §3.2), as JSON and as a form', async () => {
    const json = await post({ ...valid, organization: 'org_123', extra: { nested: true } });
    expect(json.status).toBe(200);
    const form = await post(new URLSearchParams({ ...valid, organization: 'org_123', vendor_hint: 'x' }).toString());
    expect(form.status).toBe(200);
    expect(((await form.json()) as { access_token: string }).access_token).toEqual(expect.any(String));
  });

  it('refuses a parameter sent twice', async () => {
    const response = await post(`${new URLSearchParams(valid).toString()}&audience=${encodeURIComponent(AUDIENCE)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Invalid parameter: audience must be sent once, as a single string',
    });
  });

  it('refuses both Basic and body credentials at once', async () => {
    const basic = Buffer.from(`${BOOTSTRAP.clientId}:${BOOTSTRAP.clientSecret}`).toString('base64');
    const response = await post(valid, { authorization: `Basic ${basic}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});
