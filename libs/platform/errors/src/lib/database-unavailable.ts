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
    PlatformErrorCode.DATABASE_UNAVAILABLE,
    'unavailable',
    'The service is temporarily unavailable; retry later.',
    { cause, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  );
}

/** Seconds a client is told to wait when this instance is saturated: another instance may answer sooner. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * What a pool timeout saw when it was raised (libs/platform/persistence annotates the error): set only when
 * PostgreSQL still answered (a connection came back within the window) and the instance was saturated (every
 * connection in use, requests waiting, or the event loop far behind). A timeout without it is a database that
 * does not answer: "unavailable".
 */
export interface Overload {
  pool: string;
  size: number;
  inUse: number;
  waiting: number;
  eventLoopDelayMs: number;
}

/** The overload a failure carries (on itself or a cause), if any. */
export function overloadOf(thrown: unknown, depth = 0): Overload | undefined {
  if (depth > 4 || thrown === null || typeof thrown !== 'object') return undefined;
  const error = thrown as Inspectable & { overload?: Overload };
  if (error.overload) return error.overload;
  const nested = [error.driverError, error.cause, ...(Array.isArray(error.errors) ? error.errors : [])];
  for (const inner of nested) {
    const found = overloadOf(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The 503 of a saturated instance ("busy": scale out), distinct from a database outage. */
export function instanceBusy(cause?: unknown): AppError {
  return new AppError(PlatformErrorCode.SERVICE_BUSY, 'unavailable', 'The service is busy; retry shortly.', {
    cause,
    retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
  });
}
