import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@acme/platform-persistence';
import { openRepositoryDatabase, RepositoryDatabase } from '../../../test/repository-database';
import { WorkspaceRepository } from './workspace.repository';

describe('WorkspaceRepository (real PostgreSQL)', () => {
  let db: RepositoryDatabase;
  let workspaces: WorkspaceRepository;

  beforeAll(async () => {
    db = await openRepositoryDatabase('dm-workspace-repo');
    workspaces = new WorkspaceRepository(db.dataSource);
  }, 60000);
  afterAll(() => db?.close());

  it('finds a workspace by its API key digest only, with its own token digest', async () => {
    const acme = randomUUID();
    const globex = randomUUID();
    await workspaces.insert({ id: acme, name: 'acme', apiKeyDigest: 'acme-key', authTokenDigest: 'acme-token' });
    await workspaces.insert({
      id: globex,
      name: 'globex',
      apiKeyDigest: 'globex-key',
      authTokenDigest: 'globex-token',
    });
    expect(await workspaces.findCredentialsByApiKeyDigest('acme-key')).toEqual({
      id: acme,
      authTokenDigest: 'acme-token',
    });
    expect(await workspaces.findCredentialsByApiKeyDigest('globex-key')).toEqual({
      id: globex,
      authTokenDigest: 'globex-token',
    });
    expect(await workspaces.findCredentialsByApiKeyDigest('acme-token')).toBeUndefined();
  });

  it('refuses a second workspace with the same API key digest', async () => {
    await workspaces.insert({ id: randomUUID(), name: 'a', apiKeyDigest: 'shared', authTokenDigest: 't1' });
    const failure = await workspaces
      .insert({ id: randomUUID(), name: 'b', apiKeyDigest: 'shared', authTokenDigest: 't2' })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
  });

  it('knows which workspaces exist; a malformed id is simply absent', async () => {
    const id = await db.workspace();
    expect(await workspaces.exists(id)).toBe(true);
    expect(await workspaces.exists(randomUUID())).toBe(false);
    for (const malformed of ['', 'nope', `${id}x`, "' OR 1=1 --"])
      expect(await workspaces.exists(malformed)).toBe(false);
  });
});
