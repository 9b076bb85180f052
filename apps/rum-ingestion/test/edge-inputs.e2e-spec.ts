import fc from 'fast-check';
import { TestApp } from '@acme/platform-testing';
import {
  countRows,
  createTenant,
  expectFailure,
  expectSuccess,
  INVALID,
  rum,
  startRum,
  Tenant,
  typeErrorRule,
} from './support/rum-client';

jest.setTimeout(120_000);

/** Lengths count code points as the varchar columns do (issue 25 item 6): a 400 or stored, never a 500. */
describe('RUM rules: lengths in code points', () => {
  let app: TestApp;
  let tenant: Tenant;
  const create = (body: unknown) =>
    rum(app, 'rules/create', tenant.appKey, { application_id: tenant.applicationId, ...(body as object) });

  beforeAll(async () => {
    app = await startRum({ RUM_CREATE_LIMIT_PER_SECOND: '100000', RUM_CREATE_LIMIT_PER_MINUTE: '100000' });
    tenant = await createTenant(app, 'edges');
  });
  afterAll(async () => app?.close());

  it('refuses "a\\uFE0F" × 128 as rule_name (256 characters for varchar(128)) with InvalidParameter 400', async () => {
    const before = await countRows(app, 'rules');
    expectFailure(await create(typeErrorRule('a\uFE0F'.repeat(128))), 400, ...INVALID);
    expectFailure(await create({ ...typeErrorRule('ok'), description: 'a\uFE0F'.repeat(512) }), 400, ...INVALID);
    expect(await countRows(app, 'rules')).toBe(before);
  });

  it('stores names of variation selectors, combining marks and astral characters up to 128 characters, refuses longer', async () => {
    const unit = fc.constantFrom('a', '\uFE0F', '\u0301', '\u{1F600}', '\u200D', 'é');
    await fc.assert(
      fc.asyncProperty(fc.array(unit, { minLength: 120, maxLength: 136 }), async (units) => {
        const name = units.join('');
        const reply = await create(typeErrorRule(name));
        if (units.length <= 128) expect(expectSuccess(reply).rule_name).toBe(name);
        else expectFailure(reply, 400, ...INVALID);
      }),
      { numRuns: 25 },
    );
  });
});
