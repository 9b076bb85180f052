import { AppError } from '@acme/platform-errors';

/** Internal codes of the community domain; the app's presenter maps them to Replyke's wire codes. */
export const CommunityErrorCode = {
  PROJECT_NOT_FOUND: 'PROJECT_NOT_FOUND',
  AUTH_UNAUTHORIZED: 'AUTH_UNAUTHORIZED',
  AUTH_FORBIDDEN: 'AUTH_FORBIDDEN',
  AUTH_EMAIL_TAKEN: 'AUTH_EMAIL_TAKEN',
  AUTH_INVALID_CREDENTIALS: 'AUTH_INVALID_CREDENTIALS',
  AUTH_INVALID_REFRESH_TOKEN: 'AUTH_INVALID_REFRESH_TOKEN',
  AUTH_TOKEN_REUSE_DETECTED: 'AUTH_TOKEN_REUSE_DETECTED',
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  AUTH_TOO_MANY_ATTEMPTS: 'AUTH_TOO_MANY_ATTEMPTS',
} as const;
export type CommunityErrorCode = (typeof CommunityErrorCode)[keyof typeof CommunityErrorCode];

/** Factories for the domain's failures (kind decides the HTTP status in the shared filter). */
export const CommunityErrors = {
  projectNotFound: () => new AppError(CommunityErrorCode.PROJECT_NOT_FOUND, 'not_found', 'Project not found.'),
  unauthorized: () => new AppError(CommunityErrorCode.AUTH_UNAUTHORIZED, 'unauthorized', 'Authentication is required.'),
  forbidden: (message = 'Invalid or expired access token.') => new AppError(CommunityErrorCode.AUTH_FORBIDDEN, 'forbidden', message),
  emailTaken: () => new AppError(CommunityErrorCode.AUTH_EMAIL_TAKEN, 'conflict', 'A user with this email already exists.'),
  invalidCredentials: () => new AppError(CommunityErrorCode.AUTH_INVALID_CREDENTIALS, 'unauthorized', 'Invalid email or password.'),
  invalidRefreshToken: () =>
    new AppError(CommunityErrorCode.AUTH_INVALID_REFRESH_TOKEN, 'unauthorized', 'Invalid or expired refresh token.'),
  tokenReuseDetected: () =>
    new AppError(CommunityErrorCode.AUTH_TOKEN_REUSE_DETECTED, 'unauthorized', 'Refresh token reuse detected; the session was revoked.'),
  userNotFound: () => new AppError(CommunityErrorCode.USER_NOT_FOUND, 'not_found', 'User not found.'),
  tooManyAttempts: (headers: Record<string, string>) =>
    new AppError(CommunityErrorCode.AUTH_TOO_MANY_ATTEMPTS, 'rate_limited', 'Too many attempts; try again later.', { headers }),
};
