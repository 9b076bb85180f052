import { Injectable } from '@nestjs/common';
import { digestSecret } from '@acme/platform-auth';
import { RateLimiter, rateLimitHeaders } from '@acme/platform-rate-limiting';
import { Clock, CommunitySettings, deriveKey, Project, UserService } from '@acme/community';
import { Mailer } from './mail/mailer';
import { VerificationTokenRepository } from './repositories/verification-token.repository';
import { VerificationErrors } from './verification.errors';
import { VerificationSettings } from './verification.settings';
import { verificationMail } from './verification-mail';
import {
  generateVerificationToken,
  TokenFormat,
  VERIFICATION_TOKEN_TTL_MS,
  VerificationMode,
} from './verification-token';

/** Guessing limits hold while Redis is away: counted per instance (apps/community-api README, dependency failures). */
const LOCAL_WHEN_REDIS_IS_DOWN = { fallback: 'local' } as const;

export interface SendVerificationOptions {
  mode: VerificationMode;
  tokenFormat: TokenFormat;
  tokenLength: number;
  redirectUrl?: string;
  /** Absolute URL of the link endpoint for this project (link mode). */
  linkEndpoint: string;
}

/** Sends per user: protects mailboxes from being flooded through this API. */
const SEND_LIMITS = [
  { limit: 5, windowSeconds: 60 },
  { limit: 30, windowSeconds: 3600 },
];

/**
 * Email verification (docs/community-api.md#email-verification): single-use, case-sensitive tokens living 5 minutes, stored as an HMAC
 * bound to the project; verify attempts limited per project and client address.
 */
@Injectable()
export class EmailVerificationService {
  private readonly key: Buffer;

  constructor(
    private readonly tokens: VerificationTokenRepository,
    private readonly users: UserService,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly settings: VerificationSettings,
    community: CommunitySettings,
    private readonly clock: Clock,
  ) {
    this.key = deriveKey(community.authSecret, 'verification-token');
  }

  /** Issues a token and mails it; nothing is sent when the user is already verified. */
  async send(project: Project, userId: string, options: SendVerificationOptions): Promise<void> {
    const user = await this.users.getById(project.id, userId);
    if (user.isVerified) return;
    const decision = await this.limiter.fixedWindows(
      `community:verify-send:${project.id}:${userId}`,
      SEND_LIMITS,
      1,
      LOCAL_WHEN_REDIS_IS_DOWN,
    );
    if (!decision.allowed) throw VerificationErrors.tooManyAttempts(rateLimitHeaders(decision));
    const { token, id } = await this.issue(project.id, userId, options);
    try {
      await this.mailer.send(project.id, { to: user.email, ...verificationMail(project.name, token, options) });
    } catch (error) {
      // A token nobody received must not stay valid.
      await this.tokens.delete(project.id, id);
      throw error;
    }
  }

  /** Consumes the token (and every other outstanding token of its user) and marks the user verified. */
  async verify(projectId: string, token: string, clientAddress: string): Promise<string> {
    await this.countAttempt(projectId, clientAddress);
    const userId = await this.tokens.consumeAndVerifyUser(projectId, this.digest(projectId, token), this.clock.now());
    if (!userId) throw VerificationErrors.invalidOrExpired();
    return userId;
  }

  /**
   * Whether `redirect` is the URL this token's link was mailed with (spent and expired tokens included). The
   * link endpoint redirects nowhere else: it is not an open redirect for links made up by someone else.
   */
  async isIssuedRedirect(projectId: string, token: string, redirect: string): Promise<boolean> {
    return (await this.tokens.latestRedirect(projectId, this.digest(projectId, token))) === redirect;
  }

  /**
   * Per client address, and per project across all addresses: a short code matches any live code of the
   * project, so guessing from many addresses is bounded too (docs/security.md, verification brute force).
   */
  private async countAttempt(projectId: string, clientAddress: string): Promise<void> {
    const { perMinute, perHour, perProjectPerHour } = this.settings.attempts;
    if (perProjectPerHour !== undefined) {
      const project = await this.limiter.fixedWindows(
        `community:verify-project:${projectId}`,
        [{ limit: perProjectPerHour, windowSeconds: 3600 }],
        1,
        LOCAL_WHEN_REDIS_IS_DOWN,
      );
      if (!project.allowed) throw VerificationErrors.tooManyAttempts(rateLimitHeaders(project));
    }
    const decision = await this.limiter.fixedWindows(
      `community:verify:${projectId}:${clientAddress}`,
      [
        { limit: perMinute, windowSeconds: 60 },
        { limit: perHour, windowSeconds: 3600 },
      ],
      1,
      LOCAL_WHEN_REDIS_IS_DOWN,
    );
    if (!decision.allowed) throw VerificationErrors.tooManyAttempts(rateLimitHeaders(decision));
  }

  /** Short codes can collide with another user's live code: draw again until the digest is free. */
  private async issue(
    projectId: string,
    userId: string,
    options: SendVerificationOptions,
  ): Promise<{ token: string; id: string }> {
    for (let attempt = 0; ; attempt += 1) {
      const token = generateVerificationToken(options.tokenFormat, options.tokenLength);
      const digest = this.digest(projectId, token);
      const now = this.clock.now();
      const id = await this.tokens.insertLive(
        {
          projectId,
          userId,
          tokenDigest: digest,
          mode: options.mode,
          expiresAt: new Date(now.getTime() + VERIFICATION_TOKEN_TTL_MS),
          redirectUrl: options.mode === 'link' ? (options.redirectUrl ?? null) : null,
        },
        now,
      );
      if (id !== 'digest-taken') return { token, id };
      if (attempt >= 20) throw new Error('No free verification token digest after 20 draws');
    }
  }

  private digest(projectId: string, token: string): string {
    return digestSecret(`${projectId}:${token}`, this.key);
  }
}
