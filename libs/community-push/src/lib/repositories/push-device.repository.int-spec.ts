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
    await repository.upsertWithinCap(device(projectA, alice, 'tok-1'), 20);
    await repository.upsertWithinCap(device(projectA, bob, 'tok-1'), 20);
    expect(await repository.listForUser(projectA, alice)).toEqual([]);
    expect((await repository.listForUser(projectA, bob)).map((row) => row.deviceKey)).toEqual(['tok-1']);
  });

  it('keeps the same device key apart per project and never deletes through another project', async () => {
    const [alice, carol] = [await db.user(projectA), await db.user(projectB)];
    await repository.upsertWithinCap(device(projectA, alice, 'shared'), 20);
    await repository.upsertWithinCap(device(projectB, carol, 'shared'), 20);
    expect(await repository.listForUser(projectB, alice)).toEqual([]);
    expect(await repository.deleteUserDevice(projectB, alice, 'shared')).toBe(false);
    const [row] = await repository.listForUser(projectA, alice);
    await repository.delete(projectB, (row as PushDevice).id);
    expect(await repository.listForUser(projectA, alice)).toHaveLength(1);
    expect(await repository.deleteUserDevice(projectA, alice, 'shared')).toBe(true);
    expect(await repository.listForUser(projectA, alice)).toEqual([]);
    expect(await repository.listForUser(projectB, carol)).toHaveLength(1);
  });

  it("writes nothing past the cap, counting only the user's other devices in the project", async () => {
    const [alice, bob] = [await db.user(projectA), await db.user(projectA)];
    expect(await repository.upsertWithinCap(device(projectA, alice, 'a-1'), 2)).toBe(true);
    expect(await repository.upsertWithinCap(device(projectA, alice, 'a-2'), 2)).toBe(true);
    expect(await repository.upsertWithinCap(device(projectA, bob, 'b-1'), 2)).toBe(true);
    expect(await repository.upsertWithinCap(device(projectA, alice, 'a-3'), 2)).toBe(false);
    // Taking over another user's device is a new device too.
    expect(await repository.upsertWithinCap(device(projectA, alice, 'b-1'), 2)).toBe(false);
    expect(await repository.upsertWithinCap(device(projectA, alice, 'a-2'), 2)).toBe(true);
    expect((await repository.listForUser(projectA, alice)).map((row) => row.deviceKey).sort()).toEqual(['a-1', 'a-2']);
    expect((await repository.listForUser(projectA, bob)).map((row) => row.deviceKey)).toEqual(['b-1']);
  });
});
