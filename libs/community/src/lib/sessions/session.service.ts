import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { digestSecret, generateSecret } from '@acme/platform-auth';
import { Clock } from '../clock';
import { CommunityErrors } from '../community.errors';
import { CommunitySettings } from '../community.settings';
import { RefreshTokenRepository } from '../repositories/refresh-token.repository';
import { AccessTokenService } from './access-token.service';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

/** Sign-in sessions: an access token plus a rotating refresh token with reuse detection per family. */
@Injectable()
export class SessionService {
  constructor(
    private readonly tokens: RefreshTokenRepository,
    private readonly accessTokens: AccessTokenService,
    private readonly settings: CommunitySettings,
    private readonly clock: Clock,
  ) {}

  /** Starts a new session family for the user. */
  start(projectId: string, userId: string): Promise<SessionTokens> {
    return this.issue(undefined, projectId, userId, randomUUID());
  }

  /**
   * Spends the refresh token and issues the next one of its family. A token already spent revokes the whole
   * family (someone else holds a copy); an unknown, expired or revoked token is refused.
   */
  async rotate(projectId: string, presented: string): Promise<SessionTokens & { userId: string }> {
    const digest = digestSecret(presented);
    const now = this.clock.now();
    const rotated = await this.tokens.transaction(async (manager) => {
      const spent = await this.tokens.spendLive(manager, projectId, digest, now);
      if (!spent) return undefined;
      return { userId: spent.userId, ...(await this.issue(manager, projectId, spent.userId, spent.familyId)) };
    });
    if (rotated) return rotated;
    const existing = await this.tokens.findByDigest(projectId, digest);
    if (existing?.usedAt) {
      await this.revokeFamily(projectId, existing.familyId);
      throw CommunityErrors.tokenReuseDetected();
    }
    throw CommunityErrors.invalidRefreshToken();
  }

  /** Ends the session the token belongs to (idempotent; an unknown token changes nothing). */
  async end(projectId: string, presented: string): Promise<void> {
    const existing = await this.tokens.findByDigest(projectId, digestSecret(presented));
    if (existing) await this.revokeFamily(projectId, existing.familyId);
  }

  private revokeFamily(projectId: string, familyId: string): Promise<void> {
    return this.tokens.revokeFamily(projectId, familyId, this.clock.now());
  }

  private async issue(
    manager: EntityManager | undefined,
    projectId: string,
    userId: string,
    familyId: string,
  ): Promise<SessionTokens> {
    const refreshToken = generateSecret('rt_');
    const expiresAt = new Date(this.clock.now().getTime() + this.settings.refreshTokenTtlSeconds * 1000);
    await this.tokens.insert(
      { projectId, userId, familyId, tokenDigest: digestSecret(refreshToken), expiresAt },
      manager,
    );
    return { accessToken: this.accessTokens.sign(projectId, userId), refreshToken };
  }
}
