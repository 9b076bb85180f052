import { TestApp, waitFor } from '@acme/platform-testing';
import { admin, createTenant, expectFailure, rum, startRum, Tenant } from './support/rum-client';

/** An account may hold several app keys: issued once, listed masked, revoked on every instance at once. */
describe('app keys of an account', () => {
  let first: TestApp;
  let second: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    first = await startRum();
    second = await startRum({}, first);
    tenant = await createTenant(first, 'keys');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const list = (app: TestApp, appKey: string) =>
    rum(app, 'rules/list', appKey, { application_id: tenant.applicationId });

  it('issues another key, lists keys masked, and revokes one on every instance at once', async () => {
    const issued = await admin(first, 'POST', `/accounts/${tenant.accountId}/app-keys`);
    expect(issued).toMatchObject({
      status: 201,
      body: { app_key_id: expect.any(Number), app_key: expect.stringMatching(/^rum_ak_/) },
    });
    const extra = issued.body.app_key as string;
    expect((await list(second, extra)).status).toBe(200);
    expect((await list(second, tenant.appKey)).status).toBe(200);

    const keys = await admin(first, 'GET', `/accounts/${tenant.accountId}/app-keys`);
    expect(keys.status).toBe(200);
    expect(keys.body.items).toHaveLength(2);
    const text = JSON.stringify(keys.body);
    expect(text).not.toContain(extra);
    expect(text).not.toContain(tenant.appKey);
    expect(keys.body.items.map((item: { masked_app_key: string }) => item.masked_app_key)).toEqual([
      `rum_ak_…${tenant.appKey.slice(-4)}`,
      `rum_ak_…${extra.slice(-4)}`,
    ]);

    const revoked = await admin(first, 'DELETE', `/accounts/${tenant.accountId}/app-keys/${issued.body.app_key_id}`);
    expect(revoked.status).toBe(204);
    expectFailure(await list(second, extra), 401, 'Unauthorized', 'You are unauthorized.');
    expect((await list(second, tenant.appKey)).status).toBe(200);
    // Not found is InvalidParameter 400 in this API (docs/rum-ingestion.md#errors-and-statuses).
    expect(
      (await admin(first, 'DELETE', `/accounts/${tenant.accountId}/app-keys/${issued.body.app_key_id}`)).status,
    ).toBe(400);
  });

  it('names the key in audit entries, never its value', async () => {
    const issued = await admin(first, 'POST', `/accounts/${tenant.accountId}/app-keys`);
    expect((await list(first, issued.body.app_key)).status).toBe(200);
    // The entry is written once the response has finished, so it can land after the next request is answered.
    const isTheKeys = (item: { app_key_id: number | null }) => item.app_key_id === issued.body.app_key_id;
    const log = await waitFor(
      async () => {
        const audit = await admin(first, 'GET', `/accounts/${tenant.accountId}/audit-log?limit=5`);
        return audit.body.items.some(isTheKeys) ? audit.body : undefined;
      },
      { what: "the audit entry of the new key's call" },
    );
    const entry = log.items.find(isTheKeys);
    expect(entry).toMatchObject({ route: '/rum/error-ingestion/rules/list', app_key_id: issued.body.app_key_id });
    expect(JSON.stringify(log)).not.toContain(issued.body.app_key);
  });

  it('refuses keys of an unknown account and of another account', async () => {
    expect((await admin(first, 'POST', '/accounts/999999/app-keys')).status).toBe(400);
    const other = await createTenant(first, 'other-keys');
    const keys = await admin(first, 'GET', `/accounts/${other.accountId}/app-keys`);
    const otherKeyId = keys.body.items[0].app_key_id;
    expect((await admin(first, 'DELETE', `/accounts/${tenant.accountId}/app-keys/${otherKeyId}`)).status).toBe(400);
    // Still valid: the other account's key was not revoked through this account.
    expect((await rum(first, 'rules/list', other.appKey, { application_id: other.applicationId })).status).toBe(200);
  });
});
