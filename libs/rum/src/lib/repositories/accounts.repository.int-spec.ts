import { RumTestDatabase } from '../../../test/rum-test-database';
import { AccountsRepository } from './accounts.repository';
import { AppKeysRepository } from './app-keys.repository';

describe('AccountsRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-accounts');
    accounts = new AccountsRepository(database.db);
  }, 60000);
  afterAll(() => database?.stop());

  it('inserts accounts and tells which exist', async () => {
    const id = await accounts.insert('first');
    expect(await accounts.exists(id)).toBe(true);
    expect(await accounts.exists(id + 1000)).toBe(false);
  });

  it('finds the account of an app key digest, and only that account', async () => {
    const a = await accounts.insert('tenant a');
    const b = await accounts.insert('tenant b');
    const keys = new AppKeysRepository(database.db);
    const keyA = await keys.insert(a, 'a'.repeat(64), 'aaaa');
    const keyB = await keys.insert(b, 'b'.repeat(64), 'bbbb');
    expect(await accounts.findByAppKeyDigest('a'.repeat(64))).toEqual({ id: a, name: 'tenant a', appKeyId: keyA });
    expect(await accounts.findByAppKeyDigest('b'.repeat(64))).toEqual({ id: b, name: 'tenant b', appKeyId: keyB });
    expect(await accounts.findByAppKeyDigest('c'.repeat(64))).toBeUndefined();
  });

  it('runs inside a transaction it is given', async () => {
    let inside = 0;
    await expect(
      database.db.transaction(async (manager) => {
        inside = await accounts.in(manager).insert('rolled back');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await accounts.exists(inside)).toBe(false);
  });
});
