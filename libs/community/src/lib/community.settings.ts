/** Configuration the community domain needs from its app (libs never read env). */
export abstract class CommunitySettings {
  /** Server-side secret from which the JWT and verification-token keys are derived (one key per purpose). */
  abstract readonly authSecret: string;
  abstract readonly accessTokenTtlSeconds: number;
  abstract readonly refreshTokenTtlSeconds: number;
  /** `iss` of access tokens. */
  abstract readonly issuer: string;
  /** Sign-in attempts allowed per project and client address per minute (credential stuffing). */
  abstract readonly signInAttemptsPerMinute: number;
}
