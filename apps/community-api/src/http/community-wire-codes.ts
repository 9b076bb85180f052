import { CommunityErrorCode } from '@acme/community';
import { PushErrorCode } from '@acme/community-push';
import { VerificationErrorCode } from '@acme/community-verification';

/** Wire codes of projects and end-user auth (docs/community-api.md). */
export const AUTH_WIRE_CODES: Record<CommunityErrorCode, string> = {
  PROJECT_NOT_FOUND: 'project/not-found',
  AUTH_UNAUTHORIZED: 'auth/unauthorized',
  AUTH_FORBIDDEN: 'auth/forbidden',
  AUTH_EMAIL_TAKEN: 'auth/email-already-in-use',
  AUTH_INVALID_CREDENTIALS: 'auth/invalid-credentials',
  AUTH_INVALID_REFRESH_TOKEN: 'auth/invalid-refresh-token',
  AUTH_TOKEN_REUSE_DETECTED: 'auth/token-reuse-detected',
  USER_NOT_FOUND: 'user/not-found',
  AUTH_TOO_MANY_ATTEMPTS: 'auth/too-many-attempts',
};

/** Wire codes of email verification and mail. */
export const VERIFICATION_WIRE_CODES: Record<VerificationErrorCode, string> = {
  VERIFICATION_INVALID_OR_EXPIRED: 'auth/invalid-or-expired-token',
  VERIFICATION_TOO_MANY_ATTEMPTS: 'auth/too-many-attempts',
  MAIL_UNAVAILABLE: 'mail/unavailable',
};

/** Wire codes of push devices (docs/community-api.md#push-devices). */
export const PUSH_WIRE_CODES: Record<PushErrorCode, string> = {
  PUSH_DEVICE_UNAUTHORIZED: 'push-device/unauthorized',
  PUSH_DEVICE_INVALID_BODY: 'push-device/invalid-body',
  PUSH_BUNDLE_REQUIRED: 'database/tables-not-available',
  PUSH_DEVICE_NOT_FOUND: 'push-device/not-found',
};
