import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { digestSecret, generateSecret } from '@acme/platform-auth';
import { Clock } from '../clock';
import { CommunityErrors } from '../community.errors';
import { CommunitySettings } from '../community.settings';
import { AccessTokenService } from './access-token.service';
import { RefreshToken } from './refresh-token.entity';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

interface RotatedRow {
  user_id: string;
  family_id: string;
}

/** Sign-in sessions: an access token plus a rotating refresh token with reuse detection per family. */
@Injectable()
export class SessionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accessTokens: AccessTokenService,
    private readonly settings: CommunitySettings,
    private readonly clock: Clock,
  ) {}

  /** Starts a new session family for the user. */
  start(projectId: string, userId: string): Promise<SessionTokens> {
    return this.issue(this.dataSource.manager, projectId, userId, randomUUID());
  }

  /**
   * Spends the refresh token and issues the next one of its family. A token already spent revokes the whole
   * family (someone else holds a copy); an unknown, expired or revoked token is refused.
   */
  async rotate(projectId: string, presented: string): Promise<SessionTokens & { userId: string }> {
    const digest = digestSecret(presented);
    const now = this.clock.now();
    const rotated = await this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(
        `UPDATE "community"."refresh_tokens" SET used_at = $3
          WHERE project_id = $1 AND token_digest = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $3
          RETURNING user_id, family_id`,
        [projectId, digest, now],
      )) as [RotatedRow[], number];
      const row = rows[0][0];
      if (!row) return undefined;
      return { userId: row.user_id, ...(await this.issue(manager, projectId, row.user_id, row.family_id)) };
    });
    if (rotated) return rotated;
    const existing = await this.dataSource.getRepository(RefreshToken).findOneBy({ projectId, tokenDigest: digest });
    if (existing?.usedAt) {
      await this.revokeFamily(projectId, existing.familyId);
      throw CommunityErrors.tokenReuseDetected();
    }
    throw CommunityErrors.invalidRefreshToken();
  }

  /** Ends the session the token belongs to (idempotent; an unknown token changes nothing). */
  async end(projectId: string, presented: string): Promise<void> {
    const existing = await this.dataSource
      .getRepository(RefreshToken)
      .findOneBy({ projectId, tokenDigest: digestSecret(presented) });
    if (existing) await this.revokeFamily(projectId, existing.familyId);
  }

  private async revokeFamily(projectId: string, familyId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE "community"."refresh_tokens" SET revoked_at = $3 WHERE project_id = $1 AND family_id = $2 AND revoked_at IS NULL`,
      [projectId, familyId, this.clock.now()],
    );
  }

  private async issue(manager: EntityManager, projectId: string, userId: string, familyId: string): Promise<SessionTokens> {
    const refreshToken = generateSecret('rt_');
    const expiresAt = new Date(this.clock.now().getTime() + this.settings.refreshTokenTtlSeconds * 1000);
    await manager.insert(RefreshToken, { projectId, userId, familyId, tokenDigest: digestSecret(refreshToken), expiresAt });
    return { accessToken: this.accessTokens.sign(projectId, userId), refreshToken };
  }
}
