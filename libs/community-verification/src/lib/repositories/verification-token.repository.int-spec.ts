import { randomUUID } from 'node:crypto';
import { communityTable } from '@acme/community';
import { CommunityTestDatabase, startCommunityDatabase } from '@acme/community/testing';
import { VERIFICATION_MIGRATIONS } from '../..';
import { VerificationTokenRepository } from './verification-token.repository';

describe('VerificationTokenRepository', () => {
  let db: CommunityTestDatabase;
  let repository: VerificationTokenRepository;
  let projectA: string;
  let projectB: string;
  let userA: string;
  const now = new Date('2030-01-01T00:00:00Z');
  const inFive = new Date('2030-01-01T00:05:00Z');
  beforeAll(async () => {
    db = await startCommunityDatabase('verification-tokens', [], VERIFICATION_MIGRATIONS);
    repository = new VerificationTokenRepository(db.dataSource);
    projectA = await db.project();
    projectB = await db.project();
    userA = await db.user(projectA);
  }, 60000);
  afterAll(async () => db?.close());

  const insert = (tokenDigest: string, expiresAt = inFive, userId = userA) =>
    repository.insertLive(
      {
        projectId: projectA,
        userId,
        tokenDigest,
        mode: 'link',
        expiresAt,
        redirectUrl: `https://app.example/${tokenDigest}`,
      },
      now,
    );
  const isVerified = async (userId: string) =>
    (
      (await db.dataSource.query(`SELECT is_verified FROM ${communityTable('users')} WHERE id = $1`, [userId])) as {
        is_verified: boolean;
      }[]
    )[0]?.is_verified;

  it('refuses a second live token with the same digest, and replaces an expired one', async () => {
    const digest = randomUUID();
    expect(await insert(digest)).toEqual(expect.any(String));
    expect(await insert(digest)).toBe('digest-taken');
    const expired = randomUUID();
    await insert(expired, now);
    expect(await insert(expired)).toEqual(expect.any(String));
  });

  it('consumes the token and its siblings and verifies the user, once', async () => {
    const user = await db.user(projectA);
    const [digest, sibling] = [randomUUID(), randomUUID()];
    await insert(digest, inFive, user);
    await insert(sibling, inFive, user);
    expect(await repository.consumeAndVerifyUser(projectA, digest, now)).toBe(user);
    expect(await isVerified(user)).toBe(true);
    expect(await repository.consumeAndVerifyUser(projectA, digest, now)).toBeUndefined();
    expect(await repository.consumeAndVerifyUser(projectA, sibling, now)).toBeUndefined();
  });

  it('never consumes, reads or deletes a token through another project', async () => {
    const user = await db.user(projectA);
    const digest = randomUUID();
    const id = (await insert(digest, inFive, user)) as string;
    expect(await repository.consumeAndVerifyUser(projectB, digest, now)).toBeUndefined();
    expect(await isVerified(user)).toBe(false);
    expect(await repository.latestRedirect(projectB, digest)).toBeUndefined();
    await repository.delete(projectB, id);
    expect(await repository.latestRedirect(projectA, digest)).toBe(`https://app.example/${digest}`);
    await repository.delete(projectA, id);
    expect(await repository.latestRedirect(projectA, digest)).toBeUndefined();
  });
});
