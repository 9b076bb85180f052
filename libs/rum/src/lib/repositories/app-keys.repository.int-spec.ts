import { RumTestDatabase } from '../../../test/rum-test-database';
import { AppKeysRepository } from './app-keys.repository';

describe('AppKeysRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let keys: AppKeysRepository;
  let a: number;
  let b: number;

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-app-keys');
    keys = new AppKeysRepository(database.db);
    ({ accountId: a } = await database.tenant('a'));
    ({ accountId: b } = await database.tenant('b'));
  }, 60000);
  afterAll(() => database?.stop());

  it('lists an account’s keys in issue order, never another account’s', async () => {
    const first = await keys.insert(a, '1'.repeat(64), 'k1k1');
    const second = await keys.insert(a, '2'.repeat(64), 'k2k2');
    await keys.insert(b, '3'.repeat(64), 'k3k3');
    const listed = await keys.listOfAccount(a);
    expect(listed.map(({ id, hint }) => ({ id, hint }))).toEqual([
      { id: first, hint: 'k1k1' },
      { id: second, hint: 'k2k2' },
    ]);
    expect(listed[0].createdAt).toBeInstanceOf(Date);
  });

  it('deletes a key of the account only', async () => {
    const ofB = await keys.insert(b, '4'.repeat(64), 'k4k4');
    expect(await keys.deleteOfAccount(a, ofB)).toBe(false);
    expect((await keys.listOfAccount(b)).map(({ id }) => id)).toContain(ofB);
    expect(await keys.deleteOfAccount(b, ofB)).toBe(true);
    expect((await keys.listOfAccount(b)).map(({ id }) => id)).not.toContain(ofB);
    expect(await keys.deleteOfAccount(b, ofB)).toBe(false);
  });
});
