import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { LoadedKey } from '@acme/oauth';

/** Auth0's signing key: the certificate and which role the key plays now. */
export class SigningKeyResponse {
  @ApiProperty() readonly kid!: string;
  @ApiProperty({ description: 'PEM of the self-signed X.509 certificate of the key' }) readonly cert!: string;
  @ApiProperty({ description: 'SHA-1 of the certificate, colon-separated' }) readonly fingerprint!: string;
  @ApiProperty({ description: 'SHA-1 of the certificate, hex' }) readonly thumbprint!: string;
  @ApiPropertyOptional() readonly current?: boolean;
  @ApiPropertyOptional() readonly next?: boolean;
  @ApiPropertyOptional() readonly previous?: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) readonly current_since?: string;
  @ApiPropertyOptional({ format: 'date-time' }) readonly current_until?: string;
  @ApiPropertyOptional() readonly revoked?: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) readonly revoked_at?: string;

  static from(key: LoadedKey): SigningKeyResponse {
    return {
      kid: key.kid,
      cert: key.certificate.pem,
      fingerprint: key.certificate.fingerprint,
      thumbprint: key.certificate.thumbprint,
      ...{ [key.slot]: true },
      ...(key.currentSince ? { current_since: key.currentSince.toISOString() } : {}),
      ...(key.currentUntil ? { current_until: key.currentUntil.toISOString() } : {}),
      ...(key.revokedAt ? { revoked: true, revoked_at: key.revokedAt.toISOString() } : {}),
    };
  }
}

/** What rotation and revocation answer: the key's id and certificate. */
export class SigningKeyCertResponse {
  @ApiProperty() readonly kid!: string;
  @ApiProperty() readonly cert!: string;
}
