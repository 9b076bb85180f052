import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { isUuid } from '@acme/platform-persistence';
import { Clock } from '../clock';
import { CommunitySettings } from '../community.settings';
import { CommunityErrors } from '../community.errors';
import { deriveKey } from '../derive-key';

/**
 * End-user access tokens: HS256 JWTs whose audience is the project id, so a token of one project is
 * worthless in another. Times come from the injectable clock.
 */
@Injectable()
export class AccessTokenService {
  private readonly key: Buffer;

  constructor(
    private readonly jwt: JwtService,
    private readonly settings: CommunitySettings,
    private readonly clock: Clock,
  ) {
    this.key = deriveKey(settings.authSecret, 'access-token');
  }

  sign(projectId: string, userId: string): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return this.jwt.sign(
      { iat },
      {
        secret: this.key,
        algorithm: 'HS256',
        audience: projectId,
        issuer: this.settings.issuer,
        subject: userId,
        expiresIn: this.settings.accessTokenTtlSeconds,
      },
    );
  }

  /** The user id the token was issued to, or 403 `auth/forbidden` (bad signature, expired, other project). */
  verify(projectId: string, token: string): string {
    let subject: unknown;
    try {
      const payload = this.jwt.verify<{ sub?: unknown }>(token, {
        secret: this.key,
        algorithms: ['HS256'],
        audience: projectId,
        issuer: this.settings.issuer,
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      });
      subject = payload.sub;
    } catch {
      throw CommunityErrors.forbidden();
    }
    if (!isUuid(subject)) throw CommunityErrors.forbidden();
    return subject;
  }
}
