import { characterCount } from '@acme/platform-errors';
import { Injectable } from '@nestjs/common';
import { digestSecret } from '@acme/platform-auth';
import { RateLimitEnforcer } from '@acme/platform-rate-limiting';
import {
  allowedRedirect,
  Clock,
  CommunitySettings,
  deriveKey,
  normalizeEmail,
  Project,
  UserService,
} from '@acme/community';
import { Mailer } from './mail/mailer';
import { Claimant, VerificationTokenRepository } from './repositories/verification-token.repository';
import { VerificationErrors } from './verification.errors';
import { VerificationSettings } from './verification.settings';
import { verificationMail } from './verification-mail';
import {
  generateVerificationToken,
  MAX_PRESENTED_TOKEN_CHARS,
  SendVerificationOptions,
  userIdInToken,
  VERIFICATION_TOKEN_TTL_MS,
} from './verification-token';

/** Sends per user: protects mailboxes from being flooded through this API. */
const SEND_LIMITS = [
  { limit: 5, windowSeconds: 60 },
  { limit: 30, windowSeconds: 3600 },
];

/** Whose code a verify request names besides a hex token, which carries its user: the caller, or an address. */
export interface VerifyClaim {
  userId?: string;
  email?: string;
}

/**
 * Email verification (docs/community-api.md#email-verification): the server chooses every code; one live,
 * single-use, case-sensitive code per user, living 5 minutes, stored as an HMAC bound to the project, and
 * checked only against the user it was sent to; verify attempts limited per project and client address.
 */
@Injectable()
export class EmailVerificationService {
  private readonly key: Buffer;

  constructor(
    private readonly tokens: VerificationTokenRepository,
    private readonly users: UserService,
    private readonly mailer: Mailer,
    private readonly limits: RateLimitEnforcer,
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
    // Credential limits hold while Redis is away: counted per instance (apps/community-api README).
    const decision = await this.limits.decideCredentialLimit('verify-send', {
      key: `community:verify-send:${project.id}:${userId}`,
      windows: SEND_LIMITS,
    });
    if (!decision.allowed) throw VerificationErrors.tooManyAttempts(decision);
    // Links are always hex (they carry their user); a redirect off the allow-list is dropped, not mailed.
    const mailed: SendVerificationOptions = {
      ...options,
      tokenFormat: options.mode === 'link' ? 'hex' : options.tokenFormat,
      redirectUrl: options.mode === 'link' ? allowedRedirect(project, options.redirectUrl) : undefined,
    };
    const token = generateVerificationToken(mailed.tokenFormat, mailed.tokenLength, userId);
    const tokenDigest = this.digest(project.id, token);
    const id = await this.tokens.replaceLive({
      projectId: project.id,
      userId,
      tokenDigest,
      mode: mailed.mode,
      expiresAt: new Date(this.clock.now().getTime() + VERIFICATION_TOKEN_TTL_MS),
    });
    try {
      await this.mailer.send(project.id, { to: user.email, ...verificationMail(project.name, token, mailed) });
    } catch (error) {
      // A token nobody received must not stay valid.
      await this.tokens.deleteLive(project.id, id, tokenDigest);
      throw error;
    }
  }

  /**
   * Consumes the live token of the user the request names and marks that user verified. The user comes from a
   * hex token itself, the claim's user (the caller's access token) or its email; every one given must name the
   * same user, and with none the token matches nothing: a code is never looked up project-wide.
   */
  async verify(projectId: string, token: string, claim: VerifyClaim, clientAddress: string): Promise<string> {
    await this.countAttempt(projectId, clientAddress);
    // An empty or over-long token was never issued: the spec's own 400, without a lookup.
    const presentable = token.length > 0 && characterCount(token) <= MAX_PRESENTED_TOKEN_CHARS;
    const claimant = presentable ? claimantOf(token, claim) : undefined;
    const userId =
      claimant &&
      (await this.tokens.consumeAndVerifyUser(projectId, claimant, this.digest(projectId, token), this.clock.now()));
    if (!userId) throw VerificationErrors.invalidOrExpired();
    return userId;
  }

  /**
   * Per client address, and per project across all addresses: guessing from many addresses is bounded too
   * (docs/security.md, verification brute force).
   */
  private async countAttempt(projectId: string, clientAddress: string): Promise<void> {
    const { perMinute, perHour, perProjectPerHour } = this.settings.attempts;
    if (perProjectPerHour !== undefined) {
      const project = await this.limits.decideCredentialLimit('verify-project', {
        key: `community:verify-project:${projectId}`,
        windows: [{ limit: perProjectPerHour, windowSeconds: 3600 }],
      });
      if (!project.allowed) throw VerificationErrors.tooManyAttempts(project);
    }
    const decision = await this.limits.decideCredentialLimit('verify', {
      key: `community:verify:${projectId}:${clientAddress}`,
      windows: [
        { limit: perMinute, windowSeconds: 60 },
        { limit: perHour, windowSeconds: 3600 },
      ],
    });
    if (!decision.allowed) throw VerificationErrors.tooManyAttempts(decision);
  }

  private digest(projectId: string, token: string): string {
    return digestSecret(`${projectId}:${token}`, this.key);
  }
}

/** Who the request says the code belongs to; undefined when it names nobody, or two different users. */
function claimantOf(token: string, claim: VerifyClaim): Claimant | undefined {
  const inToken = userIdInToken(token);
  if (inToken && claim.userId && inToken !== claim.userId) return undefined;
  const userId = inToken ?? claim.userId;
  const email = claim.email === undefined ? undefined : normalizeEmail(claim.email);
  if (userId) return { userId, email };
  return email ? { email } : undefined;
}
