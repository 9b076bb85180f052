import { AppError, AppErrorKind } from '@acme/platform-errors';

/** Internal codes of the policies domain; the management API's presenter maps each to its wire code. */
export enum PoliciesErrorCode {
  NOT_FOUND = 'INEXISTENT_RATE_LIMIT_POLICY',
  CONFLICT = 'RATE_LIMIT_POLICY_CONFLICT',
  INVALID_CURSOR = 'INVALID_CURSOR',
}

const KIND: Readonly<Record<PoliciesErrorCode, AppErrorKind>> = {
  [PoliciesErrorCode.NOT_FOUND]: 'not_found',
  [PoliciesErrorCode.CONFLICT]: 'conflict',
  [PoliciesErrorCode.INVALID_CURSOR]: 'validation',
};

/** A failure of the policies domain; its kind follows from the code. */
export class PoliciesError extends AppError {
  constructor(code: PoliciesErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, KIND[code], message, details === undefined ? {} : { details });
    this.name = 'PoliciesError';
  }
}

/** The domain's failures with their texts, worded once. */
export const PoliciesErrors = {
  notFound: (id: string) =>
    new PoliciesError(PoliciesErrorCode.NOT_FOUND, `The rate limit policy does not exist: ${id}`, { id }),
  conflict: () =>
    new PoliciesError(
      PoliciesErrorCode.CONFLICT,
      'A rate limit policy already exists for this resource, consumer and consumer_selector.',
    ),
  /** A `from` cursor that does not decode. */
  invalidCursor: () =>
    new PoliciesError(PoliciesErrorCode.INVALID_CURSOR, 'from is not a valid pagination cursor', {
      issues: [{ property: 'from', constraints: ['from is not a valid pagination cursor'] }],
    }),
};
