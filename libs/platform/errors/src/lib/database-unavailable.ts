import { AppError } from './app-error';
import { PlatformErrorCode } from './platform-error-code';

/** Seconds a client is told to wait when PostgreSQL is unreachable (docs/decisions.md#when-a-dependency-fails). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** Admin shutdown, crash shutdown, cannot connect now (starting or in recovery), database dropped. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '3D000']);
const DRIVER_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /Connection is not established/i,
];

interface Inspectable {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** True when the failure says PostgreSQL could not be reached or refused work for now, not that a query was wrong. */
export function isDatabaseUnavailable(thrown: unknown, depth = 0): boolean {
  if (depth > 4 || thrown === null || typeof thrown !== 'object') return false;
  const error = thrown as Inspectable;
  const code = typeof error.code === 'string' ? error.code : '';
  if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  if (typeof error.message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(error.message as string)))
    return true;
  const nested = [error.driverError, error.cause, ...(Array.isArray(error.errors) ? error.errors : [])];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

/** The 503 every presenter renders in its API's shape, with Retry-After. */
export function databaseUnavailable(cause: unknown): AppError {
  return new AppError(
    PlatformErrorCode.DatabaseUnavailable,
    'unavailable',
    'The service is temporarily unavailable; retry later.',
    { cause, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  );
}
