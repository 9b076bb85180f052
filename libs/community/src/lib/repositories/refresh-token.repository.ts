import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '@acme/platform-persistence';
import { communityTable } from '@acme/community-schema';
import { RefreshToken } from '../sessions/refresh-token.entity';

const TABLE = communityTable('refresh_tokens');

export interface NewRefreshToken {
  projectId: string;
  userId: string;
  familyId: string;
  tokenDigest: string;
  expiresAt: Date;
}

/** Refresh tokens of session families; every statement is scoped to the project. */
@Injectable()
export class RefreshTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (rotation spends one token and inserts the next together). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(token: NewRefreshToken, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(RefreshToken, token);
  }

  /** Marks the live token used; its user and family, or undefined when it is unknown, spent, revoked or expired. */
  async spendLive(
    manager: EntityManager,
    projectId: string,
    tokenDigest: string,
    now: Date,
  ): Promise<{ userId: string; familyId: string } | undefined> {
    const rows = returnedRows<{ user_id: string; family_id: string }>(
      await manager.query(
        `UPDATE ${TABLE} SET used_at = $3
          WHERE project_id = $1 AND token_digest = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $3
          RETURNING user_id, family_id`,
        [projectId, tokenDigest, now],
      ),
    );
    const row = rows[0];
    return row ? { userId: row.user_id, familyId: row.family_id } : undefined;
  }

  async findByDigest(projectId: string, tokenDigest: string): Promise<RefreshToken | undefined> {
    return (await this.dataSource.getRepository(RefreshToken).findOneBy({ projectId, tokenDigest })) ?? undefined;
  }

  async revokeFamily(projectId: string, familyId: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${TABLE} SET revoked_at = $3 WHERE project_id = $1 AND family_id = $2 AND revoked_at IS NULL`,
      [projectId, familyId, now],
    );
  }
}
