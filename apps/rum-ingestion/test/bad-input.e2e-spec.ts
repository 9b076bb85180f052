import fc from 'fast-check';
import { TestApp } from '@acme/platform-testing';
import { Client } from 'pg';
import {
  clientToken,
  createTenant,
  expectFailure,
  ingest,
  INVALID,
  UNKNOWN_ROUTE,
  Reply,
  rum,
  startRum,
  Tenant,
  typeErrorRule,
  UNAUTHORIZED,
} from './support/rum-client';
import { RUM_SCHEMA } from '@acme/rum-schema';

/** Arbitrary, mostly malformed input: always a 4xx in the spec's envelope, never InternalError, nothing half-written. */
// Real Postgres and Redis on a shared, loaded machine: allow far more than the 5 s default.
jest.setTimeout(120_000);

describe('bad input (property-based)', () => {
  let app: TestApp;
  let tenant: Tenant;
  let token: string;
  let db: Client;
  const countRows = async (_app: TestApp, table: string): Promise<number> =>
    (await db.query(`SELECT count(*)::int AS n FROM "${RUM_SCHEMA}"."${table}"`)).rows[0].n as number;

  beforeAll(async () => {
    app = await startRum({
      RUM_CREATE_LIMIT_PER_SECOND: '100000',
      RUM_CREATE_LIMIT_PER_MINUTE: '100000',
      RUM_HISTORY_LIMIT_PER_SECOND: '100000',
      RUM_HISTORY_LIMIT_PER_MINUTE: '100000',
    });
    tenant = await createTenant(app, 'fuzzed');
    token = await clientToken(app, tenant.applicationId);
    db = new Client({ connectionString: app.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  const oddText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', '\u0000', '\ud800', 'x'.repeat(129), '__proto__', 'a..b'),
  );
  const junk = fc.oneof(
    oddText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.anything(), { maxLength: 3 }),
    fc.object({ maxDepth: 2 }),
  );
  const condition = fc.record(
    {
      key: fc.oneof(fc.constantFrom('error.error_type', 'env', 'view.url'), junk),
      oper: fc.oneof(fc.constantFrom('IN', 'NOT IN', 'CONTAINS', 'NOT CONTAINS', 'in', 'LIKE'), junk),
      vals: fc.oneof(fc.array(oddText, { maxLength: 3 }), junk),
      extra: junk,
    },
    { requiredKeys: [] },
  );
  const filters = fc.oneof(fc.array(fc.array(fc.oneof(condition, junk), { maxLength: 3 }), { maxLength: 3 }), junk);

  function expectClientError(reply: Reply, allowed: number[]): void {
    expect(allowed).toContain(reply.status);
    if (reply.status >= 400) {
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.request_id).toBe(reply.headers.get('service-request-id'));
      expect(['InvalidParameter', 'Unauthorized']).toContain(reply.body.error.code);
    }
  }

  it('rules/create: a 200 writes exactly one snapshot, anything else writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            application_id: fc.oneof(fc.constant(tenant.applicationId), junk),
            rule_name: fc.oneof(oddText, junk),
            description: fc.oneof(oddText, junk),
            filters,
            other: junk,
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const before = await countRows(app, 'rule_set_snapshots');
          const reply = await rum(app, 'rules/create', tenant.appKey, body);
          expectClientError(reply, [200, 400, 403]);
          expect(await countRows(app, 'rule_set_snapshots')).toBe(before + (reply.status === 200 ? 1 : 0));
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('rules/history/list: odd paging never fails inside, and a page never exceeds 100', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            p: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer(), junk),
            limit: fc.oneof(fc.integer({ min: -5, max: 5000 }), junk),
            orderby: fc.oneof(fc.constantFrom('version', 'updated_at'), junk),
            asc: fc.oneof(fc.boolean(), junk),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const reply = await rum(app, 'rules/history/list', tenant.appKey, {
            application_id: tenant.applicationId,
            ...body,
          });
          expectClientError(reply, [200, 400]);
          if (reply.status === 200) expect(reply.body.data.items.length).toBeLessThanOrEqual(100);
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('ingest: events that are not objects are refused; objects of any shape are stored or dropped, never lost', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            events: fc.oneof(fc.array(fc.oneof(fc.object({ maxDepth: 3 }), junk), { maxLength: 20 }), junk),
          }),
          junk,
        ),
        async (body) => {
          const before = await countRows(app, 'error_events');
          const reply = await ingest(app, token, body);
          expectClientError(reply, [200, 400]);
          const accepted = reply.status === 200 ? (reply.body.data.accepted as number) : 0;
          if (reply.status === 200)
            expect(accepted + reply.body.data.dropped).toBe((body as { events: unknown[] }).events.length);
          expect(await countRows(app, 'error_events')).toBe(before + accepted);
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('stores events with NUL characters and unpaired surrogates instead of failing the batch', async () => {
    const reply = await ingest(app, token, {
      events: [{ '\u0000key': 'a\u0000b', lone: '\ud800', escaped: '\\ud800', pair: '😀' }],
    });
    expect(reply.body.data).toEqual({ accepted: 1, dropped: 0 });
  });

  it("names the parameter and the reason in InvalidParameter's message, as Flashduty's messages do", async () => {
    const text = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
    const cases: Array<[string, string, fc.Arbitrary<Record<string, unknown>>]> = [
      [
        'rules/create',
        'rule_name',
        fc
          .oneof(text, fc.constant(''), fc.string({ minLength: 129, maxLength: 140 }))
          .map((v) => ({ ...typeErrorRule(), rule_name: v })),
      ],
      [
        'rules/create',
        'description',
        fc.string({ minLength: 513, maxLength: 520 }).map((v) => ({ ...typeErrorRule(), description: v })),
      ],
      [
        'rules/create',
        'filters',
        fc.oneof(text, fc.constant([]), fc.constant([[]])).map((v) => ({ ...typeErrorRule(), filters: v })),
      ],
      [
        'rules/list',
        'p',
        fc
          .oneof(fc.integer({ max: -1 }), fc.double({ min: 0.1, max: 9.9, noInteger: true, noNaN: true }))
          .map((v) => ({ p: v })),
      ],
      ['rules/list', 'limit', fc.integer({ max: 0 }).map((v) => ({ limit: v }))],
      [
        'rules/history/list',
        'orderby',
        fc
          .string({ minLength: 1, maxLength: 8 })
          .filter((v) => !['updated_at', 'version'].includes(v))
          .map((v) => ({ orderby: v })),
      ],
      [
        'rules/history/list',
        'asc',
        fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 4 })).map((v) => ({ asc: v })),
      ],
      ['rules/info', 'rule_id', fc.stringMatching(/^[a-z]{6,12}$/).map((v) => ({ rule_id: v }))],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...cases)
          .chain(([route, parameter, bodies]) => bodies.map((body) => ({ route, parameter, body }))),
        async ({ route, parameter, body }) => {
          const reply = await rum(app, route, tenant.appKey, { application_id: tenant.applicationId, ...body });
          expectFailure(
            reply,
            400,
            'InvalidParameter',
            expect.stringMatching(new RegExp(`^The specified parameter is not valid: ${parameter}\\b.*\\.$`)),
          );
        },
      ),
      { numRuns: 80 },
    );
    const events = await ingest(app, token, { events: 'not-a-list' });
    expectFailure(
      events,
      400,
      'InvalidParameter',
      expect.stringMatching(/^The specified parameter is not valid: events\b/),
    );
  }, 120_000);

  it('answers any malformed body text with InvalidParameter 400', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }).filter((text) => {
          try {
            JSON.parse(text);
            return false;
          } catch {
            return true;
          }
        }),
        async (text) => {
          const response = await fetch(`${app.url}/rum/error-ingestion/rules/create?app_key=${tenant.appKey}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: text,
          });
          const reply = { status: response.status, body: await response.json(), headers: response.headers };
          expectFailure(reply, 400, ...INVALID);
        },
      ),
      { numRuns: 50 },
    );
  }, 60_000);

  it('keeps the HTTP status for a body over the limit (413) and an unknown route (404), with the InvalidParameter body', async () => {
    const post = async (path: string, body: string) => {
      const response = await fetch(`${app.url}${path}?app_key=${tenant.appKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return { status: response.status, body: await response.json(), headers: response.headers };
    };
    expectFailure(
      await post(
        '/rum/error-ingestion/rules/create',
        JSON.stringify({ rule_name: 'x', padding: 'x'.repeat(5 * 1024 * 1024) }),
      ),
      413,
      ...INVALID,
    );
    expectFailure(await post('/rum/error-ingestion/rules/rename', '{}'), 404, ...UNKNOWN_ROUTE);
  });

  it('answers any unknown app_key with Unauthorized 401', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (key) => {
        expectFailure(
          await rum(app, 'rules/history/list', key, { application_id: tenant.applicationId }),
          401,
          ...UNAUTHORIZED,
        );
      }),
      { numRuns: 50 },
    );
  }, 60_000);
});
