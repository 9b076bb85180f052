import { Injectable } from '@nestjs/common';
import { createSecretKey, KeyObject } from 'node:crypto';
import { sign as signJwt, verify as verifyJwt } from 'jsonwebtoken';
import { isUuid } from '@acme/platform-persistence';
import { Clock } from '../clock';
import { CommunitySettings } from '../community.settings';
import { CommunityErrors } from '../community.errors';
import { deriveKey } from '../derive-key';

/**
 * End-user access tokens: HS256 JWTs whose audience is the project id, so a token of one project is
 * worthless in another. Times come from the injectable clock. Signed and verified by jsonwebtoken alone: every
 * option is stated here, so nothing is merged in from a module configuration.
 */
@Injectable()
export class AccessTokenService {
  /**
   * A KeyObject rather than the bytes: given bytes, jsonwebtoken first tries to read them as a PEM key
   * (createPublicKey / createPrivateKey throwing) on every call, which was a quarter of the CPU of an
   * authenticated request.
   */
  private readonly key: KeyObject;

  constructor(
    private readonly settings: CommunitySettings,
    private readonly clock: Clock,
  ) {
    this.key = createSecretKey(deriveKey(settings.authSecret, 'access-token'));
  }

  sign(projectId: string, userId: string): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return signJwt({ iat }, this.key, {
      algorithm: 'HS256',
      audience: projectId,
      issuer: this.settings.issuer,
      subject: userId,
      expiresIn: this.settings.accessTokenTtlSeconds,
    });
  }

  /** The user id the token was issued to, or 403 `auth/forbidden` (bad signature, expired, other project). */
  verify(projectId: string, token: string): string {
    let subject: unknown;
    try {
      const payload = verifyJwt(token, this.key, {
        algorithms: ['HS256'],
        audience: projectId,
        issuer: this.settings.issuer,
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      }) as { sub?: unknown } | string;
      subject = typeof payload === 'string' ? undefined : payload.sub;
    } catch {
      throw CommunityErrors.forbidden();
    }
    if (!isUuid(subject)) throw CommunityErrors.forbidden();
    return subject;
  }
}
