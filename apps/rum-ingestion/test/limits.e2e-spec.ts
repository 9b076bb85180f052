import { TestApp, waitFor } from '@acme/platform-testing';
import {
  admin,
  createTenant,
  expectFailure,
  expectSuccess,
  Reply,
  rum,
  startRum,
  Tenant,
  TOO_FREQUENT,
  typeErrorRule,
} from './support/rum-client';

/**
 * Both windows of both limited routes, counted across two instances sharing Postgres and Redis. The limits
 * are lowered through the env (the defaults, 20/s + 300/min and 50/s + 1000/min, are pinned in env.spec.ts) so
 * a window fills in a few requests. Windows are fixed and aligned to Redis time (this machine's clock): an
 * attempt that straddles a window boundary proves nothing and is repeated with a fresh account.
 */
const LIMITS = { create: { perSecond: 3, perMinute: 8 }, history: { perSecond: 4, perMinute: 10 } } as const;

// Real Postgres and Redis on a shared, loaded machine: allow far more than the 5 s default.
jest.setTimeout(120_000);

describe('per-account limits across two instances', () => {
  let first: TestApp;
  let second: TestApp;
  let names = 0;

  beforeAll(async () => {
    const env = {
      RUM_CREATE_LIMIT_PER_SECOND: String(LIMITS.create.perSecond),
      RUM_CREATE_LIMIT_PER_MINUTE: String(LIMITS.create.perMinute),
      RUM_HISTORY_LIMIT_PER_SECOND: String(LIMITS.history.perSecond),
      RUM_HISTORY_LIMIT_PER_MINUTE: String(LIMITS.history.perMinute),
    };
    first = await startRum(env);
    second = await startRum(env, first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  type Route = keyof typeof LIMITS;
  const call = (route: Route, tenant: Tenant, index: number): Promise<Reply> => {
    const instance = index % 2 === 0 ? first : second;
    return route === 'create'
      ? rum(instance, 'rules/create', tenant.appKey, {
          application_id: tenant.applicationId,
          ...typeErrorRule(`n${names++}`),
        })
      : rum(instance, 'rules/history/list', tenant.appKey, { application_id: tenant.applicationId });
  };
  const refusedBy = (reply: Reply) => Number(reply.headers.get('x-ratelimit-limit'));

  async function startOfSecond(): Promise<void> {
    await waitFor(() => Date.now() % 1000 < 150, { intervalMs: 2, timeoutMs: 2000, what: 'the start of a second' });
  }

  describe.each(['create', 'history'] as Route[])('%s', (route) => {
    const { perSecond, perMinute } = LIMITS[route];

    it(`allows ${perSecond} per second per account, whichever instance serves them`, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const tenant = await createTenant(first, `${route}-second-${attempt}`);
        await startOfSecond();
        const startedAt = Date.now();
        const replies = await Promise.all(Array.from({ length: perSecond * 2 }, (_, i) => call(route, tenant, i)));
        if (Math.floor(startedAt / 1000) !== Math.floor(Date.now() / 1000)) continue;
        const allowed = replies.filter((reply) => reply.status === 200);
        const refused = replies.filter((reply) => reply.status === 429);
        expect(allowed).toHaveLength(perSecond);
        expect(refused).toHaveLength(perSecond);
        allowed.forEach(expectSuccess);
        for (const reply of refused) {
          expectFailure(reply, 429, ...TOO_FREQUENT);
          expect(refusedBy(reply)).toBe(perSecond);
          expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        }
        return;
      }
      throw new Error('every attempt straddled a second boundary');
    });

    it(`allows ${perMinute} per minute per account, whichever instance serves them`, async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const tenant = await createTenant(first, `${route}-minute-${attempt}`);
        const startedAt = Date.now();
        let allowed = 0;
        let minuteRefusal: Reply | undefined;
        for (let i = 0; !minuteRefusal && i < perMinute * 4; i++) {
          const reply = await call(route, tenant, i);
          if (reply.status === 200) {
            allowed += 1;
            continue;
          }
          expectFailure(reply, 429, ...TOO_FREQUENT);
          if (refusedBy(reply) === perMinute) minuteRefusal = reply;
          else {
            // Refused by the per-second window: that refusal is not counted; go on in the next second.
            const second = Math.floor(Date.now() / 1000);
            await waitFor(() => Math.floor(Date.now() / 1000) > second, { intervalMs: 5, what: 'the next second' });
          }
        }
        if (Math.floor(startedAt / 60000) !== Math.floor(Date.now() / 60000)) continue;
        expect(minuteRefusal).toBeDefined();
        expect(allowed).toBe(perMinute);
        expect(Number(minuteRefusal!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        // Another account is not affected.
        expectSuccess(await call(route, await createTenant(first, `${route}-bystander-${attempt}`), 1));
        return;
      }
      throw new Error('every attempt straddled a minute boundary');
    });
  });

  it("counts one budget per account, whichever of the account's app keys is used", async () => {
    const { perSecond } = LIMITS.create;
    for (let attempt = 0; attempt < 5; attempt++) {
      const tenant = await createTenant(first, `two-keys-${attempt}`);
      const issued = await admin(first, 'POST', `/accounts/${tenant.accountId}/app-keys`);
      expect(issued.status).toBe(201);
      const keys = [tenant.appKey, issued.body.app_key as string];
      await startOfSecond();
      const startedAt = Date.now();
      const replies = await Promise.all(
        Array.from({ length: perSecond * 2 }, (_, i) =>
          rum(i % 2 === 0 ? first : second, 'rules/create', keys[i % 2], {
            application_id: tenant.applicationId,
            ...typeErrorRule(`k${names++}`),
          }),
        ),
      );
      if (Math.floor(startedAt / 1000) !== Math.floor(Date.now() / 1000)) continue;
      const [byFirstKey = 0, bySecondKey = 0] = keys.map(
        (_, k) => replies.filter((r, i) => i % 2 === k && r.status === 200).length,
      );
      // Both keys drew from one account budget: together exactly the limit, never the limit each.
      expect(byFirstKey + bySecondKey).toBe(perSecond);
      for (const reply of replies.filter((r) => r.status !== 200)) expectFailure(reply, 429, ...TOO_FREQUENT);
      return;
    }
    throw new Error('every attempt straddled a second boundary');
  });
});
