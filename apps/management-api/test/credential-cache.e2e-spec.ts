import { CredentialCache } from '@acme/oauth';
import { ClientGrantRepository, ClientRepository } from '@acme/oauth/testing';
import { waitFor } from '@acme/platform-testing';
import { AUDIENCE, ManagementApp, startManagement } from './support';

/** Clients and grants are cached per instance; a write on one instance reaches the other's cache over pub/sub. */
describe('client and grant cache (two instances)', () => {
  let a: ManagementApp;
  let b: ManagementApp;

  beforeAll(async () => {
    a = await startManagement();
    b = await startManagement({ shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const tokenStatus = async (instance: ManagementApp, credentials: { clientId: string; clientSecret: string }) =>
    (
      await fetch(`${instance.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          audience: AUDIENCE,
        }),
      })
    ).status;

  async function cachedClientOnB(scope = ['read:clients']) {
    const created = await a.api('/clients', { method: 'POST', body: { name: 'cached' } });
    expect(created.status).toBe(201);
    const { client_id: clientId, client_secret: clientSecret } = (await created.json()) as {
      client_id: string;
      client_secret: string;
    };
    const grant = await a.api('/client-grants', {
      method: 'POST',
      body: { client_id: clientId, audience: AUDIENCE, scope },
    });
    expect(grant.status).toBe(201);
    const credentials = { clientId, clientSecret };
    // Repeated tokens on B: the first loads the client and grant into B's cache, the rest are served from it.
    for (let i = 0; i < 3; i += 1) expect(await tokenStatus(b, credentials)).toBe(200);
    return { credentials, grantId: ((await grant.json()) as { id: string }).id };
  }

  /** Polls until the other instance refuses, and returns how long that took after the write. */
  async function refusedWithin(
    instance: ManagementApp,
    credentials: { clientId: string; clientSecret: string },
    status: number,
    since: number,
  ) {
    await waitFor(async () => (await tokenStatus(instance, credentials)) === status, {
      timeoutMs: 5000,
      intervalMs: 10,
      what: `status ${status}`,
    });
    return Date.now() - since;
  }

  it('serves repeated token requests without querying the clients or grants tables', async () => {
    const { credentials } = await cachedClientOnB();
    const cache = b.app.get(CredentialCache);
    expect(cache.size).toBeGreaterThan(0);
    const clientLookup = jest.spyOn(b.app.get(ClientRepository), 'findById');
    const grantLookup = jest.spyOn(b.app.get(ClientGrantRepository), 'findByClientAndAudience');
    try {
      for (let i = 0; i < 5; i += 1) expect(await tokenStatus(b, credentials)).toBe(200);
      expect(clientLookup).not.toHaveBeenCalled();
      expect(grantLookup).not.toHaveBeenCalled();
    } finally {
      clientLookup.mockRestore();
      grantLookup.mockRestore();
    }
  });

  it('a grant deleted on one instance stops working on the other within one second', async () => {
    const { credentials, grantId } = await cachedClientOnB();
    const since = Date.now();
    expect((await a.api(`/client-grants/${grantId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await refusedWithin(b, credentials, 403, since)).toBeLessThan(1000);
  });

  it('a client deleted on one instance stops working on the other within one second', async () => {
    const { credentials } = await cachedClientOnB();
    const since = Date.now();
    expect((await a.api(`/clients/${credentials.clientId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await refusedWithin(b, credentials, 401, since)).toBeLessThan(1000);
  });

  it('a client unknown to an instance works there as soon as another instance creates it', async () => {
    const clientId = 'https://late.example.com/client.json';
    expect(await tokenStatus(b, { clientId, clientSecret: 'not-yet' })).toBe(401); // cached as unknown on B
    const created = await a.api('/clients', { method: 'POST', body: { name: 'late', client_id: clientId } });
    expect(created.status).toBe(201);
    const { client_secret: clientSecret } = (await created.json()) as { client_secret: string };
    expect(
      (
        await a.api('/client-grants', {
          method: 'POST',
          body: { client_id: clientId, audience: AUDIENCE, scope: ['read:clients'] },
        })
      ).status,
    ).toBe(201);
    const since = Date.now();
    await waitFor(async () => (await tokenStatus(b, { clientId, clientSecret })) === 200, {
      timeoutMs: 5000,
      intervalMs: 10,
      what: 'the new client on B',
    });
    expect(Date.now() - since).toBeLessThan(1000);
  });

  it('a grant re-created with other scopes is seen by the other instance', async () => {
    const { credentials, grantId } = await cachedClientOnB(['read:clients']);
    expect((await a.api(`/client-grants/${grantId}`, { method: 'DELETE' })).status).toBe(204);
    expect(
      (
        await a.api('/client-grants', {
          method: 'POST',
          body: { client_id: credentials.clientId, audience: AUDIENCE, scope: ['read:client_grants'] },
        })
      ).status,
    ).toBe(201);
    const scope = await waitFor(
      async () => {
        const token = await b.token(undefined, credentials).catch(() => undefined);
        const claims =
          token && (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { scope: string });
        return claims && claims.scope === 'read:client_grants' ? claims.scope : undefined;
      },
      { timeoutMs: 5000, what: 'the new scopes on B' },
    );
    expect(scope).toBe('read:client_grants');
  });
});
