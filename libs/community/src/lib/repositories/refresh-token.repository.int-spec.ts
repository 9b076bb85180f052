import { randomUUID } from 'node:crypto';
import { CommunityTestDatabase, startCommunityDatabase } from '../../testing';
import { RefreshToken } from '../sessions/refresh-token.entity';
import { RefreshTokenRepository } from './refresh-token.repository';

describe('RefreshTokenRepository', () => {
  let db: CommunityTestDatabase;
  let repository: RefreshTokenRepository;
  let projectA: string;
  let projectB: string;
  let userA: string;
  const now = new Date('2030-01-01T00:00:00Z');
  const later = new Date('2030-01-02T00:00:00Z');
  beforeAll(async () => {
    db = await startCommunityDatabase('community-refresh', [RefreshToken]);
    repository = new RefreshTokenRepository(db.dataSource);
    projectA = await db.project();
    projectB = await db.project();
    userA = await db.user(projectA);
  }, 60000);
  afterAll(async () => db?.close());

  const issue = async (familyId = randomUUID(), expiresAt = later) => {
    const tokenDigest = randomUUID();
    await repository.insert({ projectId: projectA, userId: userA, familyId, tokenDigest, expiresAt });
    return { tokenDigest, familyId };
  };

  it('spends a live token once, inside the given transaction', async () => {
    const { tokenDigest, familyId } = await issue();
    expect(
      await repository.transaction((manager) => repository.spendLive(manager, projectA, tokenDigest, now)),
    ).toEqual({ userId: userA, familyId });
    expect(
      await repository.transaction((manager) => repository.spendLive(manager, projectA, tokenDigest, now)),
    ).toBeUndefined();
    expect((await repository.findByDigest(projectA, tokenDigest))?.usedAt).toEqual(now);
  });

  it('does not spend an expired token', async () => {
    const { tokenDigest } = await issue(randomUUID(), now);
    expect(
      await repository.transaction((manager) => repository.spendLive(manager, projectA, tokenDigest, now)),
    ).toBeUndefined();
  });

  it('never finds, spends or revokes a token through another project', async () => {
    const { tokenDigest, familyId } = await issue();
    expect(await repository.findByDigest(projectB, tokenDigest)).toBeUndefined();
    expect(
      await repository.transaction((manager) => repository.spendLive(manager, projectB, tokenDigest, now)),
    ).toBeUndefined();
    await repository.revokeFamily(projectB, familyId, now);
    const untouched = await repository.findByDigest(projectA, tokenDigest);
    expect(untouched).toMatchObject({ usedAt: null, revokedAt: null });
  });

  it('revokes every token of the family', async () => {
    const first = await issue();
    const second = await issue(first.familyId);
    const other = await issue();
    await repository.revokeFamily(projectA, first.familyId, now);
    expect((await repository.findByDigest(projectA, first.tokenDigest))?.revokedAt).toEqual(now);
    expect((await repository.findByDigest(projectA, second.tokenDigest))?.revokedAt).toEqual(now);
    expect((await repository.findByDigest(projectA, other.tokenDigest))?.revokedAt).toBeNull();
  });
});
