import { X509Certificate, createPublicKey } from 'node:crypto';
import { ManagementApiError, ManagementClient } from 'auth0';
import { waitFor } from '@acme/platform-testing';
import { ManagementApp, managementSdk, SIGNING_KEY_PEM, startManagement } from './support';

type Jwk = { kid: string; n: string; e: string; kty: string; x5c?: string[] };
const jwks = async (app: ManagementApp) =>
  ((await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as { keys: Jwk[] }).keys;
const kidOfToken = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

/** Signing-key rotation and revocation through the official SDK, seen by a second instance within a second. */
describe('signing keys through the official auth0 ManagementClient', () => {
  let first: ManagementApp;
  let second: ManagementApp;
  let management: ManagementClient;

  beforeAll(async () => {
    first = await startManagement();
    second = await startManagement({ shareWith: first });
    management = managementSdk(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('lists a current and a next key with certificates, both published in the JWKS', async () => {
    const { data: keys } = await management.keys.getAll();
    expect(keys.filter((key) => key.current)).toHaveLength(1);
    expect(keys.filter((key) => key.next)).toHaveLength(1);
    const published = await jwks(second);
    for (const key of keys) {
      const certificate = new X509Certificate(key.cert);
      const jwk = published.find((candidate) => candidate.kid === key.kid) as Jwk;
      expect(jwk).toBeDefined();
      expect(certificate.publicKey.export({ format: 'jwk' })).toMatchObject({ n: jwk.n, e: jwk.e });
      expect(certificate.fingerprint).toBe(key.fingerprint);
      expect(jwk.x5c?.[0]).toBe(certificate.raw.toString('base64'));
    }
    const current = keys.find((key) => key.current)!;
    expect((await management.keys.get({ kid: current.kid })).data).toMatchObject({
      kid: current.kid,
      current: true,
      current_since: expect.any(String),
    });
  });

  it('rotates on one instance: the next key signs on every instance; the old key verifies until revoked, then nowhere', async () => {
    const before = (await management.keys.getAll()).data;
    const oldCurrent = before.find((key) => key.current)!.kid;
    const oldNext = before.find((key) => key.next)!.kid;
    const oldToken = await second.token();
    expect(kidOfToken(oldToken)).toBe(oldCurrent);

    const { data: rotated, status } = await management.keys.rotate();
    expect({ status, kid: rotated.kid }).toEqual({ status: 201, kid: oldNext });
    await waitFor(async () => kidOfToken(await second.token()) === oldNext, {
      timeoutMs: 1000,
      intervalMs: 50,
      what: 'the second instance to sign with the rotated key',
    });
    const after = (await management.keys.getAll()).data;
    expect(after.find((key) => key.kid === oldCurrent)).toMatchObject({
      previous: true,
      current_until: expect.any(String),
    });
    expect(after.filter((key) => key.next)).toHaveLength(1);
    expect((await second.api('/clients', { token: oldToken })).status).toBe(200);

    const { data: revoked } = await management.keys.revoke({ kid: oldCurrent });
    expect(revoked.kid).toBe(oldCurrent);
    await waitFor(async () => (await second.api('/clients', { token: oldToken })).status === 401, {
      timeoutMs: 1000,
      intervalMs: 50,
      what: 'the revoked key refused on the second instance',
    });
    expect((await jwks(second)).map((key) => key.kid)).not.toContain(oldCurrent);
    // The SDK's own cached token was signed by the revoked key too: a new client gets a new one.
    management = managementSdk(first);
    expect((await management.keys.get({ kid: oldCurrent })).data).toMatchObject({
      previous: true,
      revoked: true,
      revoked_at: expect.any(String),
    });
  });

  it('refuses to revoke the current or next key (409) and answers 404 for an unknown kid', async () => {
    const keys = (await management.keys.getAll()).data;
    for (const key of keys.filter((candidate) => candidate.current || candidate.next)) {
      const error = await management.keys.revoke({ kid: key.kid }).catch((e: ManagementApiError) => e);
      expect(error).toMatchObject({ statusCode: 409, errorCode: 'signing_key_conflict' });
    }
    expect(await management.keys.get({ kid: 'unknown-kid' }).catch((e: ManagementApiError) => e)).toMatchObject({
      statusCode: 404,
      errorCode: 'inexistent_signing_key',
    });
  });

  it('leaves a key configured by MANAGEMENT_SIGNING_KEY alone: rotation is a 409', async () => {
    const configured = await startManagement({ env: { MANAGEMENT_SIGNING_KEY: SIGNING_KEY_PEM } });
    try {
      const error = await managementSdk(configured)
        .keys.rotate()
        .catch((e: ManagementApiError) => e);
      expect(error).toMatchObject({ statusCode: 409, errorCode: 'signing_key_conflict' });
      const kid = createPublicKey(SIGNING_KEY_PEM).export({ format: 'jwk' }) && (await jwks(configured))[0].kid;
      expect((await managementSdk(configured).keys.getAll()).data).toEqual([
        expect.objectContaining({ kid, current: true }),
      ]);
    } finally {
      await configured.close();
    }
  });
});
