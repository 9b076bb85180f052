import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { communityTable } from '@acme/community';
import { isUniqueViolation, queryRows } from '@acme/platform-persistence';

const TOKENS = communityTable('verification_tokens');
const USERS = communityTable('users');

export interface NewVerificationToken {
  projectId: string;
  userId: string;
  tokenDigest: string;
  mode: string;
  expiresAt: Date;
  redirectUrl: string | null;
}

/** Verification tokens (stored as digests); every statement is scoped to the project. */
@Injectable()
export class VerificationTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts a live token and returns its id, or `'digest-taken'` when a live token of the project has the same
   * digest. An expired, unused row with that digest is deleted first: it would block the unique index, and is dead.
   */
  async insertLive(token: NewVerificationToken, now: Date): Promise<string | 'digest-taken'> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `DELETE FROM ${TOKENS} WHERE project_id = $1 AND token_digest = $2 AND consumed_at IS NULL AND expires_at <= $3`,
          [token.projectId, token.tokenDigest, now],
        );
        const inserted = (await manager.query(
          `INSERT INTO ${TOKENS} (project_id, user_id, token_digest, mode, expires_at, redirect_url) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [token.projectId, token.userId, token.tokenDigest, token.mode, token.expiresAt, token.redirectUrl],
        )) as { id: string }[];
        return inserted[0].id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'digest-taken';
      throw error;
    }
  }

  async delete(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${TOKENS} WHERE project_id = $1 AND id = $2`, [projectId, id]);
  }

  /**
   * One statement, so one round trip and atomic: consumes the live token, its user's other live tokens, and
   * sets the user's isVerified. Returns the user id, or undefined when no live token has this digest. The
   * siblings exclude the consumed row (a statement may not update a row twice).
   */
  async consumeAndVerifyUser(projectId: string, tokenDigest: string, now: Date): Promise<string | undefined> {
    // Straight to the pool (a hot route): no TypeORM query runner around the one statement.
    const rows = await queryRows<{ user_id: string }>(
      this.dataSource,
      `WITH consumed AS (
         UPDATE ${TOKENS} SET consumed_at = $3
          WHERE project_id = $1 AND token_digest = $2 AND consumed_at IS NULL AND expires_at > $3
          RETURNING id, user_id),
       siblings AS (
         UPDATE ${TOKENS} t SET consumed_at = $3 FROM consumed
          WHERE t.project_id = $1 AND t.user_id = consumed.user_id AND t.consumed_at IS NULL AND t.id <> consumed.id),
       verified AS (
         UPDATE ${USERS} u SET is_verified = true, updated_at = now() FROM consumed
          WHERE u.project_id = $1 AND u.id = consumed.user_id)
       SELECT user_id FROM consumed`,
      [projectId, tokenDigest, now],
    );
    return rows[0]?.user_id;
  }

  /** The redirect the newest token with this digest was issued with (spent and expired tokens included). */
  async latestRedirect(projectId: string, tokenDigest: string): Promise<string | null | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT redirect_url FROM ${TOKENS} WHERE project_id = $1 AND token_digest = $2 ORDER BY created_at DESC LIMIT 1`,
      [projectId, tokenDigest],
    )) as { redirect_url: string | null }[];
    return rows[0]?.redirect_url;
  }
}
