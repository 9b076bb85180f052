import { Client } from '../oauth.entities';
import { ManagementDatabase, openManagementDatabase } from '../../../test/management-database';
import { ClientCredentialRepository, NewClientCredential } from './client-credential.repository';
import { ClientRepository } from './client.repository';

const credential = (id: string, clientId: string): NewClientCredential => ({
  id,
  clientId,
  name: `key ${id}`,
  alg: 'RS256',
  kid: `kid-${id}`,
  public_key_pem: `pem ${id}`,
});

describe('ClientCredentialRepository (real PostgreSQL)', () => {
  let db: ManagementDatabase;
  let credentials: ClientCredentialRepository;

  beforeAll(async () => {
    db = await openManagementDatabase('client_credential_repository');
    credentials = new ClientCredentialRepository(db.dataSource);
    const clients = new ClientRepository(db.dataSource.getRepository(Client));
    for (const clientId of ['c1', 'c2']) await clients.upsertWithSecretDigest(clientId, clientId, 'digest');
  });
  afterAll(() => db?.drop());

  it('inserts a credential and answers the stored row (RETURNING)', async () => {
    const row = await credentials.insert(credential('cred_1', 'c1'));
    expect(row).toMatchObject({
      id: 'cred_1',
      name: 'key cred_1',
      alg: 'RS256',
      kid: 'kid-cred_1',
      public_key_pem: 'pem cred_1',
    });
    expect(row.created_at).toBeInstanceOf(Date);
  });

  it('refuses a credential of an unknown client (foreign key)', async () => {
    await expect(credentials.insert(credential('cred_x', 'nobody'))).rejects.toThrow();
  });

  it("lists one client's credentials, oldest first, and nothing of another client's", async () => {
    await credentials.insert(credential('cred_2', 'c1'));
    await credentials.insert(credential('cred_3', 'c2'));
    expect((await credentials.listByClient('c1')).map((row) => row.id)).toEqual(['cred_1', 'cred_2']);
    expect((await credentials.listByClient('c2')).map((row) => row.id)).toEqual(['cred_3']);
    expect(await credentials.listByClient('nobody')).toEqual([]);
  });

  it('deletes a credential only through its own client, once', async () => {
    expect(await credentials.deleteForClient('c2', 'cred_2')).toBe(false);
    expect(await credentials.deleteForClient('c1', 'cred_2')).toBe(true);
    expect(await credentials.deleteForClient('c1', 'cred_2')).toBe(false);
    expect((await credentials.listByClient('c1')).map((row) => row.id)).toEqual(['cred_1']);
  });
});
