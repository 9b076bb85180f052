import { AppError, AppErrorKind } from '@acme/platform-errors';
import type { RateLimitDecision } from '@acme/platform-rate-limiting';

/** Internal codes of the community domain; the app's presenter maps each to Replyke's wire code. */
export enum CommunityErrorCode {
  PROJECT_NOT_FOUND = 'PROJECT_NOT_FOUND',
  AUTH_UNAUTHORIZED = 'AUTH_UNAUTHORIZED',
  AUTH_FORBIDDEN = 'AUTH_FORBIDDEN',
  AUTH_EMAIL_TAKEN = 'AUTH_EMAIL_TAKEN',
  AUTH_INVALID_CREDENTIALS = 'AUTH_INVALID_CREDENTIALS',
  AUTH_INVALID_REFRESH_TOKEN = 'AUTH_INVALID_REFRESH_TOKEN',
  AUTH_TOKEN_REUSE_DETECTED = 'AUTH_TOKEN_REUSE_DETECTED',
  USER_NOT_FOUND = 'USER_NOT_FOUND',
  AUTH_TOO_MANY_ATTEMPTS = 'AUTH_TOO_MANY_ATTEMPTS',
}

const KIND: Readonly<Record<CommunityErrorCode, AppErrorKind>> = {
  [CommunityErrorCode.PROJECT_NOT_FOUND]: 'not_found',
  [CommunityErrorCode.AUTH_UNAUTHORIZED]: 'unauthorized',
  [CommunityErrorCode.AUTH_FORBIDDEN]: 'forbidden',
  [CommunityErrorCode.AUTH_EMAIL_TAKEN]: 'conflict',
  [CommunityErrorCode.AUTH_INVALID_CREDENTIALS]: 'unauthorized',
  [CommunityErrorCode.AUTH_INVALID_REFRESH_TOKEN]: 'unauthorized',
  [CommunityErrorCode.AUTH_TOKEN_REUSE_DETECTED]: 'unauthorized',
  [CommunityErrorCode.USER_NOT_FOUND]: 'not_found',
  [CommunityErrorCode.AUTH_TOO_MANY_ATTEMPTS]: 'rate_limited',
};

/** A failure of the community domain; its kind follows from the code. */
export class CommunityError extends AppError {
  constructor(code: CommunityErrorCode, message: string, rateLimit?: RateLimitDecision) {
    super(code, KIND[code], message, rateLimit ? { rateLimit } : {});
    this.name = 'CommunityError';
  }
}

/** The domain's failures with their texts. */
export const CommunityErrors = {
  projectNotFound: () => new CommunityError(CommunityErrorCode.PROJECT_NOT_FOUND, 'Project not found.'),
  unauthorized: () => new CommunityError(CommunityErrorCode.AUTH_UNAUTHORIZED, 'Authentication is required.'),
  forbidden: (message = 'Invalid or expired access token.') =>
    new CommunityError(CommunityErrorCode.AUTH_FORBIDDEN, message),
  emailTaken: () => new CommunityError(CommunityErrorCode.AUTH_EMAIL_TAKEN, 'A user with this email already exists.'),
  invalidCredentials: () =>
    new CommunityError(CommunityErrorCode.AUTH_INVALID_CREDENTIALS, 'Invalid email or password.'),
  invalidRefreshToken: () =>
    new CommunityError(CommunityErrorCode.AUTH_INVALID_REFRESH_TOKEN, 'Invalid or expired refresh token.'),
  tokenReuseDetected: () =>
    new CommunityError(
      CommunityErrorCode.AUTH_TOKEN_REUSE_DETECTED,
      'Refresh token reuse detected; the session was revoked.',
    ),
  userNotFound: () => new CommunityError(CommunityErrorCode.USER_NOT_FOUND, 'User not found.'),
  tooManyAttempts: (decision: RateLimitDecision) =>
    new CommunityError(CommunityErrorCode.AUTH_TOO_MANY_ATTEMPTS, 'Too many attempts; try again later.', decision),
};
