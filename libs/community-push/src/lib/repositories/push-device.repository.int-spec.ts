import { CommunityTestDatabase, startCommunityDatabase } from '@acme/community/testing';
import { PUSH_MIGRATIONS } from '../..';
import { PushDevice } from '../push-device.entity';
import { DeviceUpsert, PushDeviceRepository } from './push-device.repository';

describe('PushDeviceRepository', () => {
  let db: CommunityTestDatabase;
  let repository: PushDeviceRepository;
  let projectA: string;
  let projectB: string;
  beforeAll(async () => {
    db = await startCommunityDatabase('push-devices', [PushDevice], PUSH_MIGRATIONS);
    repository = new PushDeviceRepository(db.dataSource.getRepository(PushDevice));
    projectA = await db.project();
    projectB = await db.project();
  }, 60000);
  afterAll(async () => db?.close());

  const device = (projectId: string, userId: string, deviceKey: string): DeviceUpsert => ({
    projectId,
    userId,
    platform: 'ios',
    deviceKey,
    p256dh: null,
    auth: null,
    lastSeenAt: new Date(),
  });

  it('upserts one row per device key, moving it to the latest user', async () => {
    const [alice, bob] = [await db.user(projectA), await db.user(projectA)];
    await repository.upsert(device(projectA, alice, 'tok-1'));
    await repository.upsert(device(projectA, bob, 'tok-1'));
    expect(await repository.listForUser(projectA, alice)).toEqual([]);
    expect((await repository.listForUser(projectA, bob)).map((row) => row.deviceKey)).toEqual(['tok-1']);
  });

  it('keeps the same device key apart per project and never deletes through another project', async () => {
    const [alice, carol] = [await db.user(projectA), await db.user(projectB)];
    await repository.upsert(device(projectA, alice, 'shared'));
    await repository.upsert(device(projectB, carol, 'shared'));
    expect(await repository.listForUser(projectB, alice)).toEqual([]);
    expect(await repository.deleteUserDevice(projectB, alice, 'shared')).toBe(false);
    const [row] = await repository.listForUser(projectA, alice);
    await repository.delete(projectB, (row as PushDevice).id);
    expect(await repository.listForUser(projectA, alice)).toHaveLength(1);
    expect(await repository.deleteUserDevice(projectA, alice, 'shared')).toBe(true);
    expect(await repository.listForUser(projectA, alice)).toEqual([]);
    expect(await repository.listForUser(projectB, carol)).toHaveLength(1);
  });
});
