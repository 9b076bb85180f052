import { emptyObjectsBody, rssMegabytes, TestApp, timedPost, UNREAD_BODY_ANSWER_MS } from '@acme/platform-testing';
import { clientToken, createTenant, INVALID, startRum, Tenant, UNAUTHORIZED } from './support/rum-client';

jest.setTimeout(120_000);

const rumError = ([code, message]: readonly [string, string]) => ({
  error: { code, message },
  request_id: expect.any(String),
});

/** Cost before auth is bounded (docs/security.md, API4; issue 25 item 1): 1 MB everywhere, 5 MB for ingest. */
describe('RUM: body limits', () => {
  let app: TestApp;
  let tenant: Tenant;
  let token: string;
  const ingestUrl = () => `${app.url}/rum/ingest/errors`;

  beforeAll(async () => {
    app = await startRum();
    tenant = await createTenant(app, 'limits');
    token = await clientToken(app, tenant.applicationId);
  });
  afterAll(async () => app?.close());

  it('answers an ingest body of 4 MB with an unknown client token 401 from its guard, without reading it', async () => {
    const before = rssMegabytes();
    const answer = await timedPost(ingestUrl(), emptyObjectsBody(4 * 1024 * 1024), {
      headers: { 'x-rum-client-token': 'rum_ct_nope' },
    });
    expect([answer.status, answer.body]).toEqual([401, rumError(UNAUTHORIZED)]);
    expect(answer.ms).toBeLessThan(UNREAD_BODY_ANSWER_MS);
    expect(rssMegabytes() - before).toBeLessThan(100);
  });

  it('reads a 1.5 MB batch for a valid client token, and refuses one over 5 MB with 413 InvalidParameter', async () => {
    const events = Array.from({ length: 500 }, () => ({
      error: { error_type: 'TypeError' },
      payload: 'x'.repeat(3000),
    }));
    const batch = await timedPost(ingestUrl(), JSON.stringify({ events }), {
      headers: { 'x-rum-client-token': token },
    });
    expect([batch.status, batch.body.data]).toEqual([200, { accepted: 500, dropped: 0 }]);
    const tooLarge = await timedPost(ingestUrl(), emptyObjectsBody(6 * 1024 * 1024), {
      headers: { 'x-rum-client-token': token },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual(rumError(INVALID));
  });

  it('refuses a body over 1 MB on a rules route (no larger limit) with 413 InvalidParameter, before the key check', async () => {
    const body = JSON.stringify({ rule_name: 'x', padding: 'x'.repeat(1100 * 1024) });
    const answer = await timedPost(`${app.url}/rum/error-ingestion/rules/create?app_key=nope`, body);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(rumError(INVALID));
  });
});
