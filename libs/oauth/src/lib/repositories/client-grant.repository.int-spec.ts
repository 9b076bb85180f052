import { Client, ClientGrant } from '../oauth.entities';
import { ManagementDatabase, openManagementDatabase } from '../../../test/management-database';
import { ClientGrantRepository } from './client-grant.repository';
import { ClientRepository } from './client.repository';

describe('ClientGrantRepository (real PostgreSQL)', () => {
  let db: ManagementDatabase;
  let grants: ClientGrantRepository;

  beforeAll(async () => {
    db = await openManagementDatabase('client_grant_repository');
    grants = new ClientGrantRepository(db.dataSource.getRepository(ClientGrant));
    const clients = new ClientRepository(db.dataSource.getRepository(Client));
    for (const clientId of ['c1', 'c2']) await clients.upsertWithSecretDigest(clientId, clientId, 'digest');
  });
  afterAll(() => db?.drop());

  it('inserts a grant; a second one for the same client and audience is a conflict, an unknown client is said so', async () => {
    expect(await grants.insert({ id: 'cgr_a', clientId: 'c1', audience: 'https://api/', scope: ['read:a'] })).toBe(
      'created',
    );
    expect(await grants.insert({ id: 'cgr_b', clientId: 'c1', audience: 'https://api/', scope: [] })).toBe('conflict');
    expect(await grants.insert({ id: 'cgr_c', clientId: 'nobody', audience: 'https://api/', scope: [] })).toBe(
      'unknown_client',
    );
    expect(await grants.findById('cgr_a')).toMatchObject({
      clientId: 'c1',
      audience: 'https://api/',
      scope: ['read:a'],
    });
    expect(await grants.findById('cgr_b')).toBeNull();
  });

  it('finds a grant by client and audience, and nothing for another audience or client', async () => {
    await grants.insert({ id: 'cgr_find', clientId: 'c2', audience: 'https://find/', scope: ['x'] });
    expect((await grants.findByClientAndAudience('c2', 'https://find/'))?.id).toBe('cgr_find');
    expect(await grants.findByClientAndAudience('c2', 'https://other/')).toBeNull();
    expect(await grants.findByClientAndAudience('c1', 'https://find/')).toBeNull();
  });

  it('upserts a grant: creates it, then replaces its scopes and keeps its id', async () => {
    await grants.upsertScope({ id: 'cgr_up1', clientId: 'c1', audience: 'https://upsert/', scope: ['a'] });
    await grants.upsertScope({ id: 'cgr_up2', clientId: 'c1', audience: 'https://upsert/', scope: ['a', 'b'] });
    expect(await grants.findByClientAndAudience('c1', 'https://upsert/')).toMatchObject({
      id: 'cgr_up1',
      scope: ['a', 'b'],
    });
  });

  it('updates the scope of an existing grant only', async () => {
    await grants.insert({ id: 'cgr_scope', clientId: 'c2', audience: 'https://scope/', scope: ['a'] });
    expect(await grants.updateScope('cgr_scope', ['b'])).toBe(true);
    expect((await grants.findById('cgr_scope'))?.scope).toEqual(['b']);
    expect(await grants.updateScope('cgr_nothing', ['b'])).toBe(false);
  });

  it('deletes a grant, answering its client id (RETURNING), and undefined the second time', async () => {
    await grants.insert({ id: 'cgr_del', clientId: 'c2', audience: 'https://delete/', scope: [] });
    expect(await grants.deleteById('cgr_del')).toBe('c2');
    expect(await grants.deleteById('cgr_del')).toBeUndefined();
  });

  it('lists pages in creation order, filtered by client and audience, with the total', async () => {
    await db.dataSource.query(`DELETE FROM management.client_grants`);
    for (const [id, clientId, audience] of [
      ['g1', 'c1', 'https://a/'],
      ['g2', 'c2', 'https://a/'],
      ['g3', 'c1', 'https://b/'],
    ]) {
      await grants.insert({ id, clientId, audience, scope: [] });
    }
    const ids = (page: { grants: ClientGrant[] }) => page.grants.map((grant) => grant.id);
    expect(ids(await grants.listPage({}, 0, 10))).toEqual(['g1', 'g2', 'g3']);
    expect(await grants.listPage({ clientId: 'c1' }, 0, 1)).toMatchObject({ total: 2, grants: [{ id: 'g1' }] });
    expect(ids(await grants.listPage({ clientId: 'c1' }, 1, 1))).toEqual(['g3']);
    expect(ids(await grants.listPage({ audience: 'https://a/' }, 0, 10))).toEqual(['g1', 'g2']);
    expect(ids(await grants.listPage({ clientId: 'c2', audience: 'https://b/' }, 0, 10))).toEqual([]);
  });
});
