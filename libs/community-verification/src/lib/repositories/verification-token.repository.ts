import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { communityTable } from '@acme/community-schema';
import { queryRows } from '@acme/platform-persistence';

const TOKENS = communityTable('verification_tokens');
const USERS = communityTable('users');

export interface NewVerificationToken {
  projectId: string;
  userId: string;
  tokenDigest: string;
  mode: string;
  expiresAt: Date;
}

/** Whose code a verify request checks: a user id, an email address of the project, or both (they must agree). */
export type Claimant = { userId: string; email?: string } | { userId?: string; email: string };

/** Verification tokens (stored as digests); every statement is scoped to the project. */
@Injectable()
export class VerificationTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Makes this the user's one live token and returns its row id: a user's earlier live token, if any, is
   * replaced in the same statement (unique `(project_id, user_id)` among live rows), so concurrent sends
   * leave exactly one.
   */
  async replaceLive(token: NewVerificationToken): Promise<string> {
    const rows = (await this.dataSource.query(
      `INSERT INTO ${TOKENS} (project_id, user_id, token_digest, mode, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id, user_id) WHERE consumed_at IS NULL
       DO UPDATE SET token_digest = EXCLUDED.token_digest, mode = EXCLUDED.mode, expires_at = EXCLUDED.expires_at,
                     created_at = now()
       RETURNING id`,
      [token.projectId, token.userId, token.tokenDigest, token.mode, token.expiresAt],
    )) as { id: string }[];
    return rows[0].id;
  }

  /** Deletes the live token `id` if it still holds this digest (a later send's token is left alone). */
  async deleteLive(projectId: string, id: string, tokenDigest: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM ${TOKENS} WHERE project_id = $1 AND id = $2 AND token_digest = $3 AND consumed_at IS NULL`,
      [projectId, id, tokenDigest],
    );
  }

  /**
   * One statement, so one round trip and atomic: consumes the claimant's live token when it has this digest,
   * and sets the user's isVerified. Returns the user id, or undefined. Only the claimant's row is ever
   * compared: a guess can never match another user's code.
   */
  async consumeAndVerifyUser(
    projectId: string,
    claimant: Claimant,
    tokenDigest: string,
    now: Date,
  ): Promise<string | undefined> {
    if (claimant.userId === undefined && claimant.email === undefined) return undefined;
    // Straight to the pool (a hot route): no TypeORM query runner around the one statement.
    const rows = await queryRows<{ user_id: string }>(
      this.dataSource,
      `WITH claimant AS (
         SELECT u.id FROM ${USERS} u
          WHERE u.project_id = $1 AND ($2::uuid IS NULL OR u.id = $2::uuid) AND ($3::text IS NULL OR u.email = $3::text)
          LIMIT 1),
       consumed AS (
         UPDATE ${TOKENS} t SET consumed_at = $5
          WHERE t.project_id = $1 AND t.user_id = (SELECT id FROM claimant) AND t.consumed_at IS NULL
            AND t.token_digest = $4 AND t.expires_at > $5
          RETURNING user_id),
       verified AS (
         UPDATE ${USERS} u SET is_verified = true, updated_at = now() FROM consumed
          WHERE u.project_id = $1 AND u.id = consumed.user_id)
       SELECT user_id FROM consumed`,
      [projectId, claimant.userId ?? null, claimant.email ?? null, tokenDigest, now],
    );
    return rows[0]?.user_id;
  }
}
