import { AppError, AppErrorKind } from '@acme/platform-errors';

export enum PoliciesErrorCode {
  NOT_FOUND = 'INEXISTENT_RATE_LIMIT_POLICY',
  CONFLICT = 'RATE_LIMIT_POLICY_CONFLICT',
  INVALID_CURSOR = 'INVALID_CURSOR',
}

/** The policies lib's one error class; the factories below word each failure once (the app's presenter maps the codes). */
export class PoliciesError extends AppError {
  constructor(
    code: PoliciesErrorCode,
    kind: AppErrorKind,
    message: string,
    options: { details?: Record<string, unknown> } = {},
  ) {
    super(code, kind, message, options);
  }

  static notFound = (id: string) =>
    new PoliciesError(PoliciesErrorCode.NOT_FOUND, 'not_found', `The rate limit policy does not exist: ${id}`, {
      details: { id },
    });
  static conflict = () =>
    new PoliciesError(
      PoliciesErrorCode.CONFLICT,
      'conflict',
      'A rate limit policy already exists for this resource, consumer and consumer_selector.',
    );
  /** A `from` cursor that does not decode. */
  static invalidCursor = () =>
    new PoliciesError(PoliciesErrorCode.INVALID_CURSOR, 'validation', 'from is not a valid pagination cursor', {
      details: { issues: [{ property: 'from', constraints: ['from is not a valid pagination cursor'] }] },
    });
}
