import { PolicyChanges } from '@acme/policies';
import { waitFor } from '@acme/platform-testing';
import { ManagementApp, startManagement } from './support';

describe('policy writes announce themselves on PolicyChanges', () => {
  let app: ManagementApp;
  let notifications = 0;
  let unsubscribe: () => void;
  beforeAll(async () => {
    app = await startManagement();
    unsubscribe = await app.app.get(PolicyChanges).onChanged(() => {
      notifications += 1;
    });
  });
  afterAll(async () => {
    unsubscribe?.();
    await app?.close();
  });

  const body = {
    resource: 'oauth_authentication_api',
    consumer: 'client',
    consumer_selector: 'client_id:notify',
    configuration: { action: 'block', limit: 1 },
  };

  it('notifies after each committed create, patch and delete, and never after a refused write', async () => {
    const created = await app.api('/rate-limit-policies', { method: 'POST', body });
    expect(created.status).toBe(201);
    await waitFor(() => notifications === 1, { what: 'create notification' });
    const { id } = (await created.json()) as { id: string };

    expect((await app.api('/rate-limit-policies', { method: 'POST', body })).status).toBe(409);
    expect(
      (
        await app.api('/rate-limit-policies/rlp_missing', {
          method: 'PATCH',
          body: { configuration: { action: 'allow' } },
        })
      ).status,
    ).toBe(404);
    expect(
      (await app.api(`/rate-limit-policies/${id}`, { method: 'PATCH', body: { configuration: { action: 'nope' } } }))
        .status,
    ).toBe(400);
    expect((await app.api('/rate-limit-policies/rlp_missing', { method: 'DELETE' })).status).toBe(404);

    expect(
      (await app.api(`/rate-limit-policies/${id}`, { method: 'PATCH', body: { configuration: { action: 'allow' } } }))
        .status,
    ).toBe(200);
    await waitFor(() => notifications === 2, { what: 'patch notification' });
    expect((await app.api(`/rate-limit-policies/${id}`, { method: 'DELETE' })).status).toBe(204);
    await waitFor(() => notifications === 3, { what: 'delete notification' });
    // A round trip through the same channel shows no refused write published late.
    await app.app.get(PolicyChanges).notifyChanged();
    await waitFor(() => notifications === 4, { what: 'probe notification' });
    expect(notifications).toBe(4);
  });
});
