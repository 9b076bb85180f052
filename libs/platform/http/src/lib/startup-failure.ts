import { StartupError } from '@acme/platform-errors';
import { safeErrorMessage, serializeError } from '@acme/platform-observability';

export interface StartupFailure {
  /** What went wrong, in one sentence. */
  msg: string;
  /** The setting an operator should check, when one can be named. */
  check?: string;
}

interface ListenError {
  code?: unknown;
  port?: unknown;
  syscall?: unknown;
  cause?: unknown;
}

function find<T>(error: unknown, match: (value: unknown) => value is T, depth = 0): T | undefined {
  if (match(error)) return error;
  if (depth > 4 || error === null || typeof error !== 'object') return undefined;
  return find((error as ListenError).cause, match, depth + 1);
}

const isStartupError = (value: unknown): value is StartupError => value instanceof StartupError;
const isListenError = (value: unknown): value is ListenError =>
  value !== null && typeof value === 'object' && (value as ListenError).syscall === 'listen';

/** The cause of a failed start and the setting to check: a missing database, refused login, unreachable server, busy port. */
export function describeStartupFailure(error: unknown): StartupFailure {
  const named = find(error, isStartupError);
  if (named) return { msg: named.message, check: named.setting };
  const listen = find(error, isListenError);
  if (listen?.code === 'EADDRINUSE') return { msg: `port ${String(listen.port)} is already in use`, check: 'PORT' };
  if (listen?.code === 'EACCES') return { msg: `port ${String(listen.port)} may not be opened`, check: 'PORT' };
  return { msg: `failed to start: ${safeErrorMessage(error)}` };
}

/** The one fatal line of a service that cannot start: JSON, on stderr, with the cause serialized. */
export function writeFatalLine(service: string, failure: StartupFailure, error?: unknown): void {
  const line = {
    level: 60,
    time: Date.now(),
    service,
    msg: `${service}: ${failure.msg}`,
    ...(failure.check ? { check: failure.check } : {}),
    ...(error === undefined ? {} : { err: serializeError(error) }),
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
