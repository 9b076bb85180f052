import { Client } from '../oauth.entities';
import { ManagementDatabase, openManagementDatabase } from '../../../test/management-database';
import { ClientRepository, NewClient } from './client.repository';

const client = (clientId: string, overrides: Partial<NewClient> = {}): NewClient => ({
  clientId,
  name: `client ${clientId}`,
  secretDigest: 'digest',
  isFirstParty: true,
  grantTypes: ['client_credentials'],
  description: null,
  appType: null,
  clientMetadata: {},
  jwtConfiguration: null,
  tokenEndpointAuthMethod: 'client_secret_post',
  ...overrides,
});

describe('ClientRepository (real PostgreSQL)', () => {
  let db: ManagementDatabase;
  let clients: ClientRepository;

  beforeAll(async () => {
    db = await openManagementDatabase('client_repository');
    clients = new ClientRepository(db.dataSource.getRepository(Client));
  });
  afterAll(() => db?.drop());

  it('inserts a client and finds it by id; a taken id is refused without changing the stored row', async () => {
    expect(await clients.insert(client('c-insert', { clientMetadata: { team: 'a' } }))).toBe(true);
    expect(await clients.insert(client('c-insert', { name: 'other' }))).toBe(false);
    const found = await clients.findById('c-insert');
    expect(found).toMatchObject({ clientId: 'c-insert', name: 'client c-insert', clientMetadata: { team: 'a' } });
    expect(found?.createdAt).toBeInstanceOf(Date);
    expect(await clients.existsById('c-insert')).toBe(true);
  });

  it('finds nothing for an unknown id', async () => {
    expect(await clients.findById('c-unknown')).toBeNull();
    expect(await clients.existsById('c-unknown')).toBe(false);
  });

  it('upserts with a secret digest: creates a first-party client, then re-keys it and keeps its name', async () => {
    await clients.upsertWithSecretDigest('c-boot', 'Bootstrap', 'first');
    await clients.upsertWithSecretDigest('c-boot', 'Renamed', 'second');
    expect(await clients.findById('c-boot')).toMatchObject({
      name: 'Bootstrap',
      secretDigest: 'second',
      isFirstParty: true,
      grantTypes: ['client_credentials'],
    });
  });

  it('updates only the given fields and answers false for an unknown id', async () => {
    await clients.insert(client('c-update'));
    expect(await clients.update('c-update', { name: 'renamed', grantTypes: [] })).toBe(true);
    expect(await clients.findById('c-update')).toMatchObject({
      name: 'renamed',
      grantTypes: [],
      secretDigest: 'digest',
    });
    expect(await clients.update('c-nobody', { name: 'x' })).toBe(false);
  });

  it('deletes once: a second delete answers false', async () => {
    await clients.insert(client('c-delete'));
    expect(await clients.deleteById('c-delete')).toBe(true);
    expect(await clients.deleteById('c-delete')).toBe(false);
    expect(await clients.findById('c-delete')).toBeNull();
  });

  it('lists pages in creation order with the total', async () => {
    await db.dataSource.query(`DELETE FROM management.clients`);
    for (const id of ['p-1', 'p-2', 'p-3']) await clients.insert(client(id));
    const first = await clients.listPage(0, 2);
    const second = await clients.listPage(1, 2);
    expect(first.total).toBe(3);
    expect(first.clients.map((row) => row.clientId)).toEqual(['p-1', 'p-2']);
    expect(second.clients.map((row) => row.clientId)).toEqual(['p-3']);
  });
});
