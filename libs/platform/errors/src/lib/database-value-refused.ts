import { AppError } from './app-error';
import { PlatformErrorCode } from './platform-error-code';

/**
 * SQLSTATEs for a value PostgreSQL will not store: the client's input, not our failure. Validation is meant to
 * refuse these first; one that slips through is still a 400, never a 500 (docs/security.md, API8).
 */
const VALUE_SQLSTATES: Readonly<Record<string, string>> = {
  '22001': 'A value is longer than its field allows.',
  '22003': 'A number is out of range for its field.',
  '22007': 'A date or time is not valid.',
  '22008': 'A date or time is out of range.',
};

interface Inspectable {
  code?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

function refusedSqlState(thrown: unknown, depth: number): string | undefined {
  if (depth > 4 || thrown === null || typeof thrown !== 'object') return undefined;
  const error = thrown as Inspectable;
  if (typeof error.code === 'string' && error.code in VALUE_SQLSTATES) return error.code;
  return refusedSqlState(error.driverError, depth + 1) ?? refusedSqlState(error.cause, depth + 1);
}

/** The 400 every presenter renders in its shape, when PostgreSQL refused a value; undefined otherwise. */
export function databaseRefusedValue(thrown: unknown): AppError | undefined {
  const sqlState = refusedSqlState(thrown, 0);
  if (sqlState === undefined) return undefined;
  return new AppError(PlatformErrorCode.VALIDATION_FAILED, 'validation', VALUE_SQLSTATES[sqlState], {
    cause: thrown,
    details: { sqlState },
  });
}
