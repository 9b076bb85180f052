import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@acme/platform-persistence';
import { openRepositoryDatabase, RepositoryDatabase } from '../../../test/repository-database';
import { OrganizationRepository } from './organization.repository';

describe('OrganizationRepository (real PostgreSQL)', () => {
  let db: RepositoryDatabase;
  let organizations: OrganizationRepository;
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    db = await openRepositoryDatabase('dm-organization-repo');
    organizations = new OrganizationRepository(db.dataSource);
    acme = await db.workspace();
    globex = await db.workspace();
  }, 60000);
  afterAll(() => db?.close());

  it('scopes organization ids to their workspace', async () => {
    await organizations.insert(acme, 'shared');
    await organizations.insert(globex, 'shared');
    await organizations.insert(acme, 'acme-only');
    const acmeKey = await organizations.findKey(acme, 'shared');
    const globexKey = await organizations.findKey(globex, 'shared');
    expect(acmeKey).toMatch(/^\d+$/);
    expect(globexKey).toMatch(/^\d+$/);
    expect(acmeKey).not.toBe(globexKey);
    expect(await organizations.findKey(globex, 'acme-only')).toBeUndefined();
    expect(await organizations.findKey(randomUUID(), 'shared')).toBeUndefined();
    expect(await organizations.findKey('not-a-uuid', 'shared')).toBeUndefined();
  });

  it('refuses the same organization id twice in one workspace', async () => {
    await organizations.insert(acme, 'twice');
    const failure = await organizations.insert(acme, 'twice').catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    await expect(organizations.insert(globex, 'twice')).resolves.toBeUndefined();
  });

  it('makes imports wait for a whole-organization start, but not for each other', async () => {
    const key = await db.organization(acme, 'locked');
    const other = await db.organization(globex, 'unlocked');
    await db.dataSource.transaction(async (start) => {
      await organizations.lockForWholeMove(start, key);
      const blocked = db.dataSource.transaction(async (importer) => {
        await importer.query(`SET LOCAL lock_timeout = '200ms'`);
        await organizations.lockForImport(importer, key);
      });
      await expect(blocked).rejects.toMatchObject({ driverError: { code: '55P03' } });
      // Another tenant's organization is not held by this lock.
      await db.dataSource.transaction(async (importer) => {
        await importer.query(`SET LOCAL lock_timeout = '200ms'`);
        await organizations.lockForImport(importer, other);
      });
    });
    await db.dataSource.transaction(async (first) => {
      await organizations.lockForImport(first, key);
      await db.dataSource.transaction(async (second) => {
        await second.query(`SET LOCAL lock_timeout = '200ms'`);
        await organizations.lockForImport(second, key);
      });
    });
  });
});
