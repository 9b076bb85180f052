import { AppError } from '@acme/platform-errors';

export enum PoliciesErrorCode {
  NotFound = 'INEXISTENT_RATE_LIMIT_POLICY',
  Conflict = 'RATE_LIMIT_POLICY_CONFLICT',
  InvalidCursor = 'INVALID_CURSOR',
}

export class PolicyNotFoundError extends AppError {
  constructor(id: string) {
    super(PoliciesErrorCode.NotFound, 'not_found', `The rate limit policy does not exist: ${id}`, { details: { id } });
  }
}

export class PolicyConflictError extends AppError {
  constructor() {
    super(PoliciesErrorCode.Conflict, 'conflict', 'A rate limit policy already exists for this resource, consumer and consumer_selector.');
  }
}

/** A `from` cursor that does not decode is a bad query string. */
export class InvalidCursorError extends AppError {
  constructor() {
    super(PoliciesErrorCode.InvalidCursor, 'validation', 'from is not a valid pagination cursor', {
      details: { location: 'query', issues: [{ property: 'from', constraints: ['from is not a valid pagination cursor'] }] },
    });
  }
}
