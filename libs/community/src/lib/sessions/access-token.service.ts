import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, KeyObject } from 'node:crypto';
import { verify as verifyJwt } from 'jsonwebtoken';
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
  /**
   * A KeyObject rather than the bytes: given bytes, jsonwebtoken first tries to read them as a PEM key
   * (createPublicKey / createPrivateKey throwing) on every call, which was a quarter of the CPU of an
   * authenticated request. @nestjs/jwt hands `secret` to jsonwebtoken as is; its option type names only
   * string | Buffer, hence the casts below.
   */
  private readonly key: KeyObject;

  constructor(
    private readonly jwt: JwtService,
    private readonly settings: CommunitySettings,
    private readonly clock: Clock,
  ) {
    this.key = createSecretKey(deriveKey(settings.authSecret, 'access-token'));
  }

  sign(projectId: string, userId: string): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return this.jwt.sign(
      { iat },
      {
        secret: this.key as unknown as Buffer,
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
      // jsonwebtoken directly (as JwtService.verify ends up doing): JwtService merges its module options into
      // these on every call, ~5 µs of a hot authenticated request for options this service always states whole.
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
