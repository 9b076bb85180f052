import { RumTestDatabase } from '../../../test/rum-test-database';
import { ApplicationsRepository } from './applications.repository';

describe('ApplicationsRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let applications: ApplicationsRepository;
  let a: { accountId: number; applicationId: string };
  let b: { accountId: number; applicationId: string };

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-applications');
    applications = new ApplicationsRepository(database.db);
    a = await database.tenant('a');
    b = await database.tenant('b');
  }, 60000);
  afterAll(() => database?.stop());

  it('tells which applications exist', async () => {
    expect(await applications.exists(a.applicationId)).toBe(true);
    expect(await applications.exists('no-such-app')).toBe(false);
  });

  it('answers the owner and only the asking account’s grant', async () => {
    expect(await applications.grantOf(a.applicationId, b.accountId)).toEqual({
      ownerAccountId: a.accountId,
      granted: undefined,
    });
    await applications.upsertAccess(a.applicationId, b.accountId, 'read');
    expect(await applications.grantOf(a.applicationId, b.accountId)).toEqual({
      ownerAccountId: a.accountId,
      granted: 'read',
    });
    await applications.upsertAccess(a.applicationId, b.accountId, 'write');
    expect(await applications.grantOf(a.applicationId, b.accountId)).toEqual({
      ownerAccountId: a.accountId,
      granted: 'write',
    });
    // B's grant on A's application gives nothing on B's own or to A on B's.
    expect(await applications.grantOf(b.applicationId, a.accountId)).toEqual({
      ownerAccountId: b.accountId,
      granted: undefined,
    });
    expect(await applications.grantOf('no-such-app', a.accountId)).toBeUndefined();
  });

  it('resolves a client token to its own application and version', async () => {
    await applications.insertClientToken(a.applicationId, 'a'.repeat(64));
    await applications.insertClientToken(b.applicationId, 'b'.repeat(64));
    expect(await applications.findByClientTokenDigest('a'.repeat(64))).toEqual({
      applicationId: a.applicationId,
      ruleSetVersion: 0,
    });
    expect(await applications.findByClientTokenDigest('b'.repeat(64))).toEqual({
      applicationId: b.applicationId,
      ruleSetVersion: 0,
    });
    expect(await applications.findByClientTokenDigest('c'.repeat(64))).toBeUndefined();
  });

  it('locks and moves one application’s rule-set version, leaving the others', async () => {
    await database.db.transaction(async (manager) => {
      const inTransaction = applications.in(manager);
      expect(await inTransaction.lockRuleSetVersion(a.applicationId)).toBe(0);
      await inTransaction.setRuleSetVersion(a.applicationId, 1);
    });
    expect(await applications.lockRuleSetVersion(a.applicationId)).toBe(1);
    expect(await applications.lockRuleSetVersion(b.applicationId)).toBe(0);
    expect(await applications.lockRuleSetVersion('no-such-app')).toBeUndefined();
  });
});
