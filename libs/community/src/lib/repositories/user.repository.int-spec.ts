import { CommunityTestDatabase, startCommunityDatabase } from '../../testing';
import { User } from '../users/user.entity';
import { UserRepository } from './user.repository';

describe('UserRepository', () => {
  let db: CommunityTestDatabase;
  let repository: UserRepository;
  let projectA: string;
  let projectB: string;
  beforeAll(async () => {
    db = await startCommunityDatabase('community-users', [User]);
    repository = new UserRepository(db.dataSource.getRepository(User));
    projectA = await db.project();
    projectB = await db.project();
  }, 60000);
  afterAll(async () => db?.close());

  const insert = async (projectId: string, email: string) => {
    const user = await repository.insert({ projectId, email, passwordHash: `hash-${projectId}`, name: null });
    if (user === 'email-taken') throw new Error('unexpected email-taken');
    return user;
  };

  it('keeps emails unique per project, not across projects', async () => {
    await insert(projectA, 'same@example.com');
    expect(
      await repository.insert({ projectId: projectA, email: 'same@example.com', passwordHash: 'h', name: null }),
    ).toBe('email-taken');
    await expect(insert(projectB, 'same@example.com')).resolves.toMatchObject({
      projectId: projectB,
      isVerified: false,
    });
  });

  it('finds the password hash within the project only', async () => {
    await insert(projectA, 'hash@example.com');
    expect(await repository.findWithPasswordHash(projectA, 'hash@example.com')).toMatchObject({
      passwordHash: `hash-${projectA}`,
    });
    expect(await repository.findWithPasswordHash(projectB, 'hash@example.com')).toBeUndefined();
    expect(
      (await repository.findById(projectA, (await insert(projectA, 'plain@example.com')).id))?.passwordHash,
    ).toBeUndefined();
  });

  it('never returns or verifies a user of another project', async () => {
    const user = await insert(projectA, 'verify@example.com');
    expect(await repository.findById(projectA, user.id)).toMatchObject({ id: user.id });
    expect(await repository.findById(projectB, user.id)).toBeUndefined();
    expect(await repository.findById(projectA, 'not-a-uuid')).toBeUndefined();
    await repository.markVerified(db.dataSource.manager, projectB, user.id);
    expect((await repository.findById(projectA, user.id))?.isVerified).toBe(false);
    await repository.markVerified(db.dataSource.manager, projectA, user.id);
    expect((await repository.findById(projectA, user.id))?.isVerified).toBe(true);
  });
});
