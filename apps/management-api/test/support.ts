import { ManagementClient } from 'auth0';
import { generateKeyPairSync } from 'node:crypto';
import { startTestApp, TestApp, TestDatabase } from '@acme/platform-testing';
import { AppModule } from '../src/app.module';
import { managementService } from '../src/service';

export const PUBLIC_URL = 'https://tenant.test';
export const AUDIENCE = `${PUBLIC_URL}/api/v2/`;
export const ISSUER = `${PUBLIC_URL}/`;
/** Auth0's 429 text, pinned here as a literal (not imported from the lib) so a change to it fails the tests. */
export const TOO_MANY_REQUESTS_TEXT =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';
export const BOOTSTRAP = { clientId: 'bootstrap-client', clientSecret: 'bootstrap-secret-0123456789abcdef' };

/** A fixed signing key lets tests forge tokens with this tenant's key (wrong audience, expired, ...). */
export const SIGNING_KEY_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

export interface ManagementApp extends TestApp {
  token(scope?: string, credentials?: { clientId: string; clientSecret: string }): Promise<string>;
  /** The raw answer of a client-credentials request for the management audience. */
  tokenResponse(credentials: { clientId: string; clientSecret: string }, scope?: string): Promise<Response>;
  api(
    path: string,
    init?: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
}

export async function startManagement(
  options: { env?: Record<string, string>; shareWith?: { database: TestDatabase; redisPrefix: string } } = {},
): Promise<ManagementApp> {
  const app = await startTestApp({
    service: managementService,
    module: (env) => AppModule.forRoot(env),
    env: {
      PUBLIC_URL,
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: BOOTSTRAP.clientId,
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP.clientSecret,
      MANAGEMENT_CLIENT_SECRET_KEY: 'test-client-secret-key-0123456789',
      MANAGEMENT_RATE_LIMIT_PER_SECOND: '100000',
      ...options.env,
    },
    database: options.shareWith?.database,
    redisPrefix: options.shareWith?.redisPrefix,
  });
  const tokenResponse: ManagementApp['tokenResponse'] = (credentials, scope) =>
    fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        audience: AUDIENCE,
        scope,
      }),
    });
  const token = async (scope?: string, credentials = BOOTSTRAP) => {
    const response = await tokenResponse(credentials, scope);
    if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  };
  let cached: string | undefined;
  const api: ManagementApp['api'] = async (path, init = {}) => {
    const bearer = init.token ?? (cached ??= await token());
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${app.url}/api/v2${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
  };
  return Object.assign(app, { token, tokenResponse, api });
}

/** The official `auth0` SDK pointed at this instance (it always calls https://{domain}; `fetch` reroutes it). */
export function managementSdk(app: TestApp): ManagementClient {
  const routed = (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    return fetch(url.replace(/^https:\/\/tenant\.test/, app.url), init);
  };
  return new ManagementClient({
    domain: 'tenant.test',
    clientId: BOOTSTRAP.clientId,
    clientSecret: BOOTSTRAP.clientSecret,
    fetch: routed as typeof fetch,
    retry: { enabled: false },
  });
}
