import { AppError } from '@acme/platform-errors';

/** Internal codes of email verification and mail; the app maps them to wire codes. */
export const VerificationErrorCode = {
  VERIFICATION_INVALID_OR_EXPIRED: 'VERIFICATION_INVALID_OR_EXPIRED',
  VERIFICATION_TOO_MANY_ATTEMPTS: 'VERIFICATION_TOO_MANY_ATTEMPTS',
  MAIL_UNAVAILABLE: 'MAIL_UNAVAILABLE',
} as const;
export type VerificationErrorCode = (typeof VerificationErrorCode)[keyof typeof VerificationErrorCode];

export const VerificationErrors = {
  invalidOrExpired: () => new AppError(VerificationErrorCode.VERIFICATION_INVALID_OR_EXPIRED, 'validation', 'Invalid or expired token.'),
  tooManyAttempts: (headers: Record<string, string>) =>
    new AppError(VerificationErrorCode.VERIFICATION_TOO_MANY_ATTEMPTS, 'rate_limited', 'Too many attempts; try again later.', { headers }),
  mailUnavailable: (cause: unknown) => new AppError(VerificationErrorCode.MAIL_UNAVAILABLE, 'unavailable', 'The email could not be sent.', { cause }),
};
