import { PasswordErrorCode } from '@acme/platform-auth';
import { AppErrorKind, PlatformErrorCode } from '@acme/platform-errors';
import { CommunityErrorCode } from '@acme/community';
import { PushErrorCode } from '@acme/community-push';
import { VerificationErrorCode } from '@acme/community-verification';
import { EventErrorCode } from '@acme/events';
import { ROUTE_INPUT_CODES } from './route-body-codes';

export const PLATFORM_WIRE_CODES: Readonly<Record<PlatformErrorCode | PasswordErrorCode, string>> = {
  [PlatformErrorCode.ROUTE_NOT_FOUND]: 'route/not-found',
  [PlatformErrorCode.MALFORMED_BODY]: 'request/invalid-json',
  [PlatformErrorCode.MALFORMED_REQUEST]: 'request/malformed',
  [PlatformErrorCode.MALFORMED_URI]: 'request/invalid-body',
  [PlatformErrorCode.HEADERS_TOO_LARGE]: 'request/headers-too-large',
  [PlatformErrorCode.VALIDATION_FAILED]: 'request/invalid-body',
  [PlatformErrorCode.PAYLOAD_TOO_LARGE]: 'request/payload-too-large',
  [PlatformErrorCode.UNSUPPORTED_ENCODING]: 'request/invalid-body',
  [PlatformErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'request/invalid-body',
  [PlatformErrorCode.REQUEST_ABORTED]: 'request/invalid-body',
  [PlatformErrorCode.ADMIN_UNAUTHORIZED]: 'admin/unauthorized',
  [PlatformErrorCode.RATE_LIMITED]: 'request/too-many-requests',
  [PlatformErrorCode.DATABASE_UNAVAILABLE]: 'server/unavailable',
  [PlatformErrorCode.SERVICE_BUSY]: 'server/busy',
  [PlatformErrorCode.INTERNAL]: 'server/internal-error',
  // The password-hashing gate's queue is full (README, Auth rules): retry after Retry-After.
  [PasswordErrorCode.HASHING_BUSY]: 'server/busy',
};

/** Wire codes of projects and end-user auth (docs/community-api.md). */
export const AUTH_WIRE_CODES: Readonly<Record<CommunityErrorCode, string>> = {
  [CommunityErrorCode.PROJECT_NOT_FOUND]: 'project/not-found',
  [CommunityErrorCode.AUTH_UNAUTHORIZED]: 'auth/unauthorized',
  [CommunityErrorCode.AUTH_FORBIDDEN]: 'auth/forbidden',
  [CommunityErrorCode.AUTH_EMAIL_TAKEN]: 'auth/email-already-in-use',
  [CommunityErrorCode.AUTH_INVALID_CREDENTIALS]: 'auth/invalid-credentials',
  [CommunityErrorCode.AUTH_INVALID_REFRESH_TOKEN]: 'auth/invalid-refresh-token',
  [CommunityErrorCode.AUTH_TOKEN_REUSE_DETECTED]: 'auth/token-reuse-detected',
  [CommunityErrorCode.USER_NOT_FOUND]: 'user/not-found',
  [CommunityErrorCode.AUTH_TOO_MANY_ATTEMPTS]: 'auth/too-many-attempts',
};

/** Wire codes of email verification and mail. */
export const VERIFICATION_WIRE_CODES: Readonly<Record<VerificationErrorCode, string>> = {
  [VerificationErrorCode.VERIFICATION_INVALID_OR_EXPIRED]: 'auth/invalid-or-expired-token',
  [VerificationErrorCode.VERIFICATION_TOO_MANY_ATTEMPTS]: 'auth/too-many-attempts',
  [VerificationErrorCode.MAIL_UNAVAILABLE]: 'mail/unavailable',
};

/** Wire codes of push devices (docs/community-api.md#push-devices). */
export const PUSH_WIRE_CODES: Readonly<Record<PushErrorCode, string>> = {
  [PushErrorCode.PUSH_DEVICE_UNAUTHORIZED]: 'push-device/unauthorized',
  [PushErrorCode.PUSH_DEVICE_INVALID_BODY]: 'push-device/invalid-body',
  [PushErrorCode.PUSH_BUNDLE_REQUIRED]: 'database/tables-not-available',
  [PushErrorCode.PUSH_DEVICE_NOT_FOUND]: 'push-device/not-found',
};

/** Wire codes of events, RSVPs, spaces and files (docs/community-api.md#events). */
export const EVENT_WIRE_CODES: Readonly<Record<EventErrorCode, string>> = {
  // The domain's input errors all come from request bodies (images, RSVP userId, uploads); queries are DTOs.
  [EventErrorCode.INVALID_INPUT]: 'event/invalid-body',
  [EventErrorCode.FILES_IMAGES_BUNDLE_REQUIRED]: 'event/files-images-bundle-required',
  [EventErrorCode.SPACES_BUNDLE_REQUIRED]: 'event/spaces-bundle-required',
  [EventErrorCode.SPACE_NOT_FOUND]: 'event/space-not-found',
  [EventErrorCode.NOT_SPACE_MEMBER]: 'event/not-space-member',
  [EventErrorCode.FILE_TOO_LARGE]: 'event/file-too-large',
  [EventErrorCode.INVALID_IMAGE]: 'event/invalid-image',
  [EventErrorCode.NOT_FOUND]: 'event/not-found',
  [EventErrorCode.CANCELLED]: 'event/cancelled',
  [EventErrorCode.RSVP_CLOSED]: 'event/rsvp-closed',
  [EventErrorCode.MAYBE_DISABLED]: 'event/maybe-disabled',
  [EventErrorCode.FULL]: 'event/full',
  [EventErrorCode.NOT_HOST]: 'event/not-host',
  [EventErrorCode.GUEST_LIST_HIDDEN]: 'event/guest-list-hidden',
  [EventErrorCode.FILE_NOT_FOUND]: 'file/not-found',
};

/** Every code the app can meet. */
export type CommunityAppErrorCode =
  PlatformErrorCode | PasswordErrorCode | CommunityErrorCode | VerificationErrorCode | PushErrorCode | EventErrorCode;

export const COMMUNITY_WIRE_CODES: Readonly<Record<CommunityAppErrorCode, string>> = {
  ...PLATFORM_WIRE_CODES,
  ...AUTH_WIRE_CODES,
  ...VERIFICATION_WIRE_CODES,
  ...PUSH_WIRE_CODES,
  ...EVENT_WIRE_CODES,
};

/**
 * Only for the framework's `HTTP_<status>` codes (a status Nest or a parser raised that no table can list,
 * e.g. 405): the wire code follows the status's kind.
 */
export const HTTP_STATUS_WIRE_CODES: Readonly<Record<AppErrorKind, string>> = {
  validation: 'request/invalid-body',
  unauthorized: 'auth/unauthorized',
  forbidden: 'auth/forbidden',
  not_found: 'resource/not-found',
  conflict: 'resource/conflict',
  payload_too_large: 'request/payload-too-large',
  unprocessable: 'request/unprocessable',
  rate_limited: 'request/too-many-requests',
  unavailable: 'server/unavailable',
  internal: 'server/internal-error',
};

/** Every wire code the presenter can answer, as published in openapi.json (error-enum.spec.ts compares them). */
export const PUBLISHED_WIRE_CODES: readonly string[] = [
  ...new Set([
    ...Object.values(COMMUNITY_WIRE_CODES),
    ...Object.values(HTTP_STATUS_WIRE_CODES),
    ...ROUTE_INPUT_CODES.map((route) => route.code),
  ]),
].sort();
