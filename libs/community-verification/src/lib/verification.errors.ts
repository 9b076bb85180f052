import { AppError, AppErrorKind, AppErrorOptions } from '@acme/platform-errors';
import type { RateLimitDecision } from '@acme/platform-rate-limiting';

/** Internal codes of email verification and mail; the app maps them to wire codes. */
export enum VerificationErrorCode {
  VERIFICATION_INVALID_OR_EXPIRED = 'VERIFICATION_INVALID_OR_EXPIRED',
  VERIFICATION_TOO_MANY_ATTEMPTS = 'VERIFICATION_TOO_MANY_ATTEMPTS',
  MAIL_UNAVAILABLE = 'MAIL_UNAVAILABLE',
}

const KIND: Readonly<Record<VerificationErrorCode, AppErrorKind>> = {
  [VerificationErrorCode.VERIFICATION_INVALID_OR_EXPIRED]: 'validation',
  [VerificationErrorCode.VERIFICATION_TOO_MANY_ATTEMPTS]: 'rate_limited',
  [VerificationErrorCode.MAIL_UNAVAILABLE]: 'unavailable',
};

/** A failure of email verification or mail; its kind follows from the code. */
export class VerificationError extends AppError {
  constructor(
    code: VerificationErrorCode,
    message: string,
    options: Pick<AppErrorOptions, 'rateLimit' | 'cause'> = {},
  ) {
    super(code, KIND[code], message, options);
    this.name = 'VerificationError';
  }
}

export const VerificationErrors = {
  invalidOrExpired: () =>
    new VerificationError(VerificationErrorCode.VERIFICATION_INVALID_OR_EXPIRED, 'Invalid or expired token.'),
  tooManyAttempts: (decision: RateLimitDecision) =>
    new VerificationError(VerificationErrorCode.VERIFICATION_TOO_MANY_ATTEMPTS, 'Too many attempts; try again later.', {
      rateLimit: decision,
    }),
  mailUnavailable: (cause: unknown) =>
    new VerificationError(VerificationErrorCode.MAIL_UNAVAILABLE, 'The email could not be sent.', { cause }),
};
