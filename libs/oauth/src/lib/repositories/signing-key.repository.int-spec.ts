import { SigningKey } from '../oauth.entities';
import { ManagementDatabase, openManagementDatabase } from '../../../test/management-database';
import { SigningKeyRepository } from './signing-key.repository';

describe('SigningKeyRepository (real PostgreSQL)', () => {
  let db: ManagementDatabase;
  let keys: SigningKeyRepository;
  const slots = async () =>
    (await keys.listInCreationOrder()).map((key) => `${key.kid}:${key.slot}${key.revokedAt ? ':revoked' : ''}`);

  beforeAll(async () => {
    db = await openManagementDatabase('signing_key_repository');
    keys = new SigningKeyRepository(db.dataSource.getRepository(SigningKey));
  });
  afterAll(() => db?.drop());

  it('fills each empty live slot once; a second insert into a filled slot does nothing', async () => {
    expect(await keys.existsInSlot('current')).toBe(false);
    await keys.insertIntoEmptySlot('current', 'k1', 'sealed-1');
    await keys.insertIntoEmptySlot('current', 'k-loser', 'sealed-x');
    await keys.insertIntoEmptySlot('next', 'k2', 'sealed-2');
    expect([await keys.existsInSlot('current'), await keys.existsInSlot('next')]).toEqual([true, true]);
    expect(await slots()).toEqual(['k1:current', 'k2:next']);
    const [current, next] = await keys.listInCreationOrder();
    expect(current.currentSince).toBeInstanceOf(Date);
    expect(next.currentSince).toBeNull();
  });

  it('rotates: current becomes previous, next becomes current, the new key is next', async () => {
    await keys.rotate('k3', 'sealed-3');
    expect(await slots()).toEqual(['k1:previous', 'k2:current', 'k3:next']);
    const [previous, current] = await keys.listInCreationOrder();
    expect(previous.currentUntil).toBeInstanceOf(Date);
    expect(current.currentSince).toBeInstanceOf(Date);
  });

  it('revokes a previous key once, and never a current or next key', async () => {
    await keys.revokePrevious('k2');
    await keys.revokePrevious('k3');
    await keys.revokePrevious('k1');
    const revokedAt = (await keys.listInCreationOrder())[0].revokedAt;
    await keys.revokePrevious('k1');
    expect(await slots()).toEqual(['k1:previous:revoked', 'k2:current', 'k3:next']);
    expect((await keys.listInCreationOrder())[0].revokedAt).toEqual(revokedAt);
  });

  it('seals a clear key in place only while the row still holds that clear key', async () => {
    await keys.sealInPlace('k2', 'not-what-is-stored', 'sealed-new');
    expect((await keys.listInCreationOrder())[1].privateKeyPem).toBe('sealed-2');
    await keys.sealInPlace('k2', 'sealed-2', 'sealed-again');
    expect((await keys.listInCreationOrder())[1].privateKeyPem).toBe('sealed-again');
  });
});
