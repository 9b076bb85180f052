import { randomUUID } from 'node:crypto';
import { communityTable } from '@acme/community-schema';
import { CommunityTestDatabase, startCommunityDatabase } from '@acme/community/testing';
import { VERIFICATION_MIGRATIONS } from '../..';
import { VerificationTokenRepository } from './verification-token.repository';

describe('VerificationTokenRepository', () => {
  let db: CommunityTestDatabase;
  let repository: VerificationTokenRepository;
  let projectA: string;
  let projectB: string;
  const now = new Date('2030-01-01T00:00:00Z');
  const inFive = new Date('2030-01-01T00:05:00Z');
  beforeAll(async () => {
    db = await startCommunityDatabase('verification-tokens', [], VERIFICATION_MIGRATIONS);
    repository = new VerificationTokenRepository(db.dataSource);
    projectA = await db.project();
    projectB = await db.project();
  }, 60000);
  afterAll(async () => db?.close());

  const replace = (userId: string, tokenDigest: string, expiresAt = inFive, projectId = projectA) =>
    repository.replaceLive({ projectId, userId, tokenDigest, mode: 'code', expiresAt });
  const isVerified = async (userId: string) =>
    (
      (await db.dataSource.query(`SELECT is_verified FROM ${communityTable('users')} WHERE id = $1`, [userId])) as {
        is_verified: boolean;
      }[]
    )[0]?.is_verified;
  const emailOf = async (userId: string) =>
    (
      (await db.dataSource.query(`SELECT email FROM ${communityTable('users')} WHERE id = $1`, [userId])) as {
        email: string;
      }[]
    )[0].email;
  const liveRows = async (userId: string) =>
    (
      (await db.dataSource.query(
        `SELECT count(*)::int AS n FROM ${communityTable('verification_tokens')} WHERE user_id = $1 AND consumed_at IS NULL`,
        [userId],
      )) as { n: number }[]
    )[0].n;

  it('keeps one live token per user: a new one replaces the old, also when sent concurrently', async () => {
    const user = await db.user(projectA);
    await replace(user, 'first');
    await replace(user, 'second');
    expect(await liveRows(user)).toBe(1);
    expect(await repository.consumeAndVerifyUser(projectA, { userId: user }, 'first', now)).toBeUndefined();
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((digest) => replace(user, digest)));
    expect(await liveRows(user)).toBe(1);
  });

  it('consumes only the named user’s token, once, and verifies that user', async () => {
    const [owner, other] = [await db.user(projectA), await db.user(projectA)];
    const digest = randomUUID();
    await replace(owner, digest);
    // The right digest under another user's name, or under nobody's, matches nothing.
    expect(await repository.consumeAndVerifyUser(projectA, { userId: other }, digest, now)).toBeUndefined();
    expect(
      await repository.consumeAndVerifyUser(projectA, { email: await emailOf(other) }, digest, now),
    ).toBeUndefined();
    expect(await repository.consumeAndVerifyUser(projectA, {} as never, digest, now)).toBeUndefined();
    expect(
      await repository.consumeAndVerifyUser(projectA, { userId: owner, email: await emailOf(other) }, digest, now),
    ).toBeUndefined();
    expect(await isVerified(owner)).toBe(false);
    expect(await repository.consumeAndVerifyUser(projectA, { email: await emailOf(owner) }, digest, now)).toBe(owner);
    expect(await isVerified(owner)).toBe(true);
    expect(await repository.consumeAndVerifyUser(projectA, { userId: owner }, digest, now)).toBeUndefined();
  });

  it('refuses an expired token', async () => {
    const user = await db.user(projectA);
    await replace(user, 'old', now);
    expect(await repository.consumeAndVerifyUser(projectA, { userId: user }, 'old', now)).toBeUndefined();
  });

  it('never consumes or deletes a token through another project', async () => {
    const user = await db.user(projectA);
    const digest = randomUUID();
    const id = await replace(user, digest);
    expect(await repository.consumeAndVerifyUser(projectB, { userId: user }, digest, now)).toBeUndefined();
    expect(await isVerified(user)).toBe(false);
    await repository.deleteLive(projectB, id, digest);
    expect(await liveRows(user)).toBe(1);
  });

  it('deletes a live token only while it still holds the digest (a later send survives)', async () => {
    const user = await db.user(projectA);
    const id = await replace(user, 'mailed-first');
    expect(await replace(user, 'mailed-second')).toBe(id);
    await repository.deleteLive(projectA, id, 'mailed-first');
    expect(await liveRows(user)).toBe(1);
    await repository.deleteLive(projectA, id, 'mailed-second');
    expect(await liveRows(user)).toBe(0);
  });
});
