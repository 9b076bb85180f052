import { createPrivateKey, createPublicKey, createHash } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, createTestRedisPrefix, TestDatabase } from '@acme/platform-testing';
import { ManagementApp, SIGNING_KEY_PEM, startManagement } from './support';

const thumbprintOf = (pem: string) => {
  const jwk = createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' }) as { e: string; kty: string; n: string };
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');
};

const kidOf = async (app: ManagementApp) =>
  (
    (await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as {
      keys: Array<{ kid: string; kty: string; alg: string; use: string }>;
    }
  ).keys;

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

  it("generates one current and one next key when two instances start at once, and each accepts the other's tokens", async () => {
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
      const { rows } = await db.query('SELECT kid, slot, private_key_pem FROM management.signing_keys ORDER BY slot');
      expect(rows.map((row) => row.slot)).toEqual(['current', 'next']);
      expect(rows.map((row) => row.kid).sort()).toEqual(keysA.map((key) => key.kid).sort());
      for (const row of rows) {
        // Stored sealed (AES-256-GCM), never the PEM in clear.
        expect(row.private_key_pem).toMatch(/^sealed\.v1\./);
        expect(row.private_key_pem).not.toContain('PRIVATE KEY');
      }
    } finally {
      await db.end();
    }

    // A restart keeps the stored key.
    const c = await startManagement({ shareWith: shared });
    apps.push(c);
    expect(await kidOf(c)).toEqual(keysA);
  });

  it('seals a key stored in clear by an earlier version on first start, keeping its kid', async () => {
    const legacy = await createTestDatabase('management-keys-legacy');
    try {
      const first = await startManagement({
        shareWith: { database: legacy, redisPrefix: createTestRedisPrefix('management-keys') },
      });
      const kid = (await kidOf(first))[0].kid;
      await first.close();
      const db = new Client({ connectionString: legacy.url });
      await db.connect();
      try {
        await db.query(`UPDATE management.signing_keys SET private_key_pem = $1, kid = $2 WHERE slot = 'current'`, [
          SIGNING_KEY_PEM,
          thumbprintOf(SIGNING_KEY_PEM),
        ]);
        const again = await startManagement({
          shareWith: { database: legacy, redisPrefix: createTestRedisPrefix('management-keys') },
        });
        try {
          expect((await kidOf(again))[0].kid).toBe(thumbprintOf(SIGNING_KEY_PEM));
          expect((await kidOf(again))[0].kid).not.toBe(kid);
          expect((await again.api('/rate-limit-policies')).status).toBe(200);
        } finally {
          await again.close();
        }
        const { rows } = await db.query(`SELECT private_key_pem FROM management.signing_keys WHERE slot = 'current'`);
        expect(rows[0].private_key_pem).toMatch(/^sealed\.v1\./);
      } finally {
        await db.end();
      }
      // Sealed under the client-secret key: another key cannot open it, and start-up says which variable.
      await expect(
        startManagement({
          env: { MANAGEMENT_CLIENT_SECRET_KEY: 'another-client-secret-key-0123456789' },
          shareWith: { database: legacy, redisPrefix: createTestRedisPrefix('management-keys') },
        }),
      ).rejects.toThrow(/MANAGEMENT_CLIENT_SECRET_KEY/);
    } finally {
      await legacy.drop();
    }
  });

  it('uses MANAGEMENT_SIGNING_KEY when set, with its RFC 7638 thumbprint as kid', async () => {
    const app = await startManagement({ env: { MANAGEMENT_SIGNING_KEY: SIGNING_KEY_PEM.replace(/\n/g, '\\n') } });
    apps.push(app);
    const jwk = createPublicKey(createPrivateKey(SIGNING_KEY_PEM)).export({ format: 'jwk' }) as {
      e: string;
      kty: string;
      n: string;
    };
    expect((await kidOf(app))[0]).toMatchObject({ kid: thumbprintOf(SIGNING_KEY_PEM), n: jwk.n, e: jwk.e });
  });
});
