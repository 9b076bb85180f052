import { createPrivateKey, createPublicKey, createHash } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, createTestRedisPrefix, TestDatabase } from '@acme/platform-testing';
import { ManagementApp, SIGNING_KEY_PEM, startManagement } from './support';

const kidOf = async (app: ManagementApp) =>
  ((await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string; kty: string; alg: string; use: string }> }).keys;

describe('the signing key shared by every instance', () => {
  let database: TestDatabase;
  const apps: ManagementApp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('management-keys');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it('generates one key when two instances start at once, and each accepts the other\'s tokens', async () => {
    const redisPrefix = createTestRedisPrefix('management-keys');
    const shared = { database, redisPrefix };
    const [a, b] = await Promise.all([startManagement({ shareWith: shared }), startManagement({ shareWith: shared })]);
    apps.push(a, b);
    const [keysA, keysB] = await Promise.all([kidOf(a), kidOf(b)]);
    expect(keysA).toEqual(keysB);
    expect(keysA[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    const tokenFromA = await a.token();
    expect((await b.api('/rate-limit-policies', { token: tokenFromA })).status).toBe(200);

    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT kid FROM management.signing_keys');
      expect(rows).toEqual([{ kid: keysA[0].kid }]);
    } finally {
      await db.end();
    }

    // A restart keeps the stored key.
    const c = await startManagement({ shareWith: shared });
    apps.push(c);
    expect(await kidOf(c)).toEqual(keysA);
  });

  it('uses MANAGEMENT_SIGNING_KEY when set, with its RFC 7638 thumbprint as kid', async () => {
    const app = await startManagement({ env: { MANAGEMENT_SIGNING_KEY: SIGNING_KEY_PEM.replace(/\n/g, '\\n') } });
    apps.push(app);
    const jwk = createPublicKey(createPrivateKey(SIGNING_KEY_PEM)).export({ format: 'jwk' }) as { e: string; kty: string; n: string };
    const expected = createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url');
    expect((await kidOf(app))[0]).toMatchObject({ kid: expected, n: jwk.n, e: jwk.e });
  });
});
