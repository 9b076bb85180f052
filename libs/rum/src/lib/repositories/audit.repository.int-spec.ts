import { RumTestDatabase } from '../../../test/rum-test-database';
import { AuditRepository, NewAuditEntry } from './audit.repository';

describe('AuditRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let audit: AuditRepository;

  const entry = (accountId: number, requestId: string): NewAuditEntry => ({
    accountId,
    appKeyId: null,
    method: 'POST',
    route: '/rum/error-ingestion/rules/create',
    applicationId: 'app',
    status: 200,
    result: 'Success',
    requestId,
    request: { body: { rule_name: 'x' } },
  });

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-audit');
    audit = new AuditRepository(database.db);
  }, 60000);
  afterAll(() => database?.stop());

  it('pages an account’s entries newest first and never shows another account’s', async () => {
    for (const id of ['a1', 'a2', 'a3']) await audit.insert(entry(1, id));
    await audit.insert({ ...entry(2, 'b1'), appKeyId: 7, applicationId: null });
    const newest = await audit.newestOfAccount(1, 2);
    expect(newest.map((row) => row.requestId)).toEqual(['a3', 'a2']);
    expect(newest[0]).toMatchObject({
      accountId: 1,
      method: 'POST',
      status: 200,
      request: { body: { rule_name: 'x' } },
      appKeyId: null,
    });
    expect(newest[0].createdAt).toBeInstanceOf(Date);
    expect((await audit.newestOfAccount(1, 10, newest[1].id)).map((row) => row.requestId)).toEqual(['a1']);
    expect(await audit.newestOfAccount(2, 10)).toEqual([
      expect.objectContaining({ requestId: 'b1', appKeyId: 7, applicationId: null }),
    ]);
    expect(await audit.newestOfAccount(3, 10)).toEqual([]);
  });
});
