import { CommunityTestDatabase, startCommunityDatabase } from '@acme/community/testing';
import { PUSH_MIGRATIONS } from '../..';
import { VapidKeyRepository } from './vapid-key.repository';

/** The VAPID pair is the deployment's (one row), not a tenant's: there is no project to scope by. */
describe('VapidKeyRepository', () => {
  let db: CommunityTestDatabase;
  beforeAll(async () => {
    db = await startCommunityDatabase('push-vapid', [], PUSH_MIGRATIONS);
  }, 60000);
  afterAll(async () => db?.close());

  it('keeps the first pair stored; later writers get it back', async () => {
    const repository = new VapidKeyRepository(db.dataSource);
    const first = { publicKey: 'pub-1', privateKey: 'priv-1' };
    expect(await repository.storeOnce(first)).toEqual(first);
    expect(await repository.storeOnce({ publicKey: 'pub-2', privateKey: 'priv-2' })).toEqual(first);
    expect(await repository.find()).toEqual(first);
  });

  it('seals in place only the value it read (a concurrent writer wins)', async () => {
    const repository = new VapidKeyRepository(db.dataSource);
    await repository.sealInPlace('not-what-is-stored', 'sealed-a');
    expect((await repository.find())?.privateKey).toBe('priv-1');
    await repository.sealInPlace('priv-1', 'sealed-b');
    expect(await repository.find()).toEqual({ publicKey: 'pub-1', privateKey: 'sealed-b' });
  });
});
