import { createECDH } from 'node:crypto';
import webpush from 'web-push';
import { derivePurposeKey, isSealed, openSecret } from '@acme/platform-auth';
import { createTestDatabase, TestDatabase } from '@acme/platform-testing';
import { API, CommunityTestApp } from './support/community-app';
import { queryDb } from './support/db';

const SECRET = 'test-secret-0123456789-0123456789-abcdef'; // CommunityTestApp's COMMUNITY_AUTH_SECRET
const sealingKey = derivePurposeKey(SECRET, 'community vapid private key at rest');

/** The public key a VAPID private key (URL-safe base64 P-256 scalar) belongs to. */
const publicKeyOf = (privateKey: string) => {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
};

/**
 * The VAPID private key at rest (docs/security.md, community-api): a dump of the database must not be enough to
 * push to every subscriber, so the stored key is sealed, and one stored in clear by an older version is sealed
 * when the app starts.
 */
describe('VAPID private key sealed at rest', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('community-api');
  });
  afterAll(async () => database?.drop());

  const storedRow = async () =>
    (
      await queryDb<{ public_key: string; private_key: string }>(
        database.url,
        'SELECT public_key, private_key FROM community.push_vapid_keys',
      )
    )[0];
  const publicKeyServed = async (t: CommunityTestApp) => {
    const project = await t.createProject(['push']);
    const user = await t.signUp(project.id);
    const answer = await t.request('GET', `${API(project.id)}/push-notifications/vapid-public-key`, {
      token: user.accessToken,
    });
    expect(answer.status).toBe(200);
    return answer.body.publicKey as string;
  };

  it('a generated key is stored sealed, and opens to the private half of the served public key', async () => {
    const t = await CommunityTestApp.start({ database });
    try {
      const publicKey = await publicKeyServed(t);
      const row = await storedRow();
      expect(row.public_key).toBe(publicKey);
      expect(isSealed(row.private_key)).toBe(true);
      expect(publicKeyOf(openSecret(row.private_key, sealingKey))).toBe(publicKey);
    } finally {
      await t.close();
    }
  });

  it('a key stored in clear is sealed when the app starts, and is still the one used', async () => {
    const clear = webpush.generateVAPIDKeys();
    await queryDb(database.url, 'UPDATE community.push_vapid_keys SET public_key = $1, private_key = $2', [
      clear.publicKey,
      clear.privateKey,
    ]);
    const t = await CommunityTestApp.start({ database });
    try {
      const row = await storedRow();
      expect(row.private_key).not.toContain(clear.privateKey);
      expect(isSealed(row.private_key)).toBe(true);
      expect(openSecret(row.private_key, sealingKey)).toBe(clear.privateKey);
      expect(await publicKeyServed(t)).toBe(clear.publicKey);
    } finally {
      await t.close();
    }
  });

  it('refuses to start when the stored key does not open with COMMUNITY_AUTH_SECRET, saying what to do', async () => {
    const outcome = await CommunityTestApp.startOutcome({
      database,
      env: { COMMUNITY_AUTH_SECRET: 'another-secret-0123456789-0123456789-xyz' },
    });
    expect(outcome).toMatch(/VAPID private key does not open with COMMUNITY_AUTH_SECRET/);
  });
});
