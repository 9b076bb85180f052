import { TestApp } from '@acme/platform-testing';
import { RULE_SET_LIMITS } from '@acme/rum';
import {
  createTenant,
  expectFailure,
  expectSuccess,
  INVALID,
  rum,
  startRum,
  typeErrorRule,
} from './support/rum-client';

jest.setTimeout(180_000);

/** One group, one condition, 200 values of 1,024 characters: about 205 KB of filters. */
const bigRule = (name: string, fill = 'x') => ({
  rule_name: name,
  description: 'large allow-list',
  filters: [
    [{ key: 'error.message', oper: 'IN', vals: Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(1024, fill)) }],
  ],
});

describe('rule set caps per application (issue 25 item 5)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startRum({ RUM_CREATE_LIMIT_PER_SECOND: '1000', RUM_CREATE_LIMIT_PER_MINUTE: '10000' });
  });
  afterAll(() => app?.close());

  const historyTotal = async (tenant: { appKey: string; applicationId: string }) =>
    expectSuccess(await rum(app, 'rules/history/list', tenant.appKey, { application_id: tenant.applicationId }))
      .total as number;

  it(`refuses rule ${RULE_SET_LIMITS.maxRules + 1} of an application with InvalidParameter 400 and stores no snapshot`, async () => {
    const tenant = await createTenant(app, 'many-rules');
    const call = (route: string, body: Record<string, unknown>) =>
      rum(app, route, tenant.appKey, { application_id: tenant.applicationId, ...body });
    for (let i = 0; i < RULE_SET_LIMITS.maxRules; i++)
      expectSuccess(await call('rules/create', typeErrorRule(`r${i}`)));
    expectFailure(await call('rules/create', typeErrorRule('one too many')), 400, ...INVALID);
    expect(await historyTotal(tenant)).toBe(RULE_SET_LIMITS.maxRules);
    const list = expectSuccess(await call('rules/list', { limit: 1 }));
    expect(list.total).toBe(RULE_SET_LIMITS.maxRules);
  });

  it('refuses filters past 1 MiB in total per application, on create and on update, with nothing stored', async () => {
    const tenant = await createTenant(app, 'big-filters');
    const call = (route: string, body: Record<string, unknown>) =>
      rum(app, route, tenant.appKey, { application_id: tenant.applicationId, ...body });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(expectSuccess(await call('rules/create', bigRule(`big${i}`))).rule_id);
    expectFailure(await call('rules/create', bigRule('big5')), 400, ...INVALID);
    expect(await historyTotal(tenant)).toBe(5);
    // A small rule still fits; growing it to a big one does not, and leaves it as it was.
    const small = expectSuccess(await call('rules/create', typeErrorRule('small'))).rule_id;
    expectFailure(await call('rules/update', { rule_id: small, filters: bigRule('x').filters }), 400, ...INVALID);
    const info = expectSuccess(await call('rules/info', { rule_id: small }));
    expect(info.filters).toEqual(typeErrorRule().filters);
    // Replacing a big rule's filters by ones of the same size stays within the cap.
    expectSuccess(await call('rules/update', { rule_id: ids[0], filters: bigRule('y', 'y').filters }));
    expect(await historyTotal(tenant)).toBe(7);
  });
});
