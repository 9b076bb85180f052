import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { isDatabaseUnavailable, StartupError } from '@acme/platform-errors';

interface DriverFields {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  driverError?: unknown;
}

/** Cannot heal by waiting: the database does not exist, or the login was refused (docs/operations.md). */
const PERMANENT_SQLSTATES: Record<string, string> = {
  '3D000': 'the database named in DATABASE_URL does not exist',
  '28P01': 'PostgreSQL refused the login in DATABASE_URL',
  '28000': 'PostgreSQL refused the login in DATABASE_URL',
};

function codeOf(error: unknown, depth = 0): string | undefined {
  if (depth > 3 || error === null || typeof error !== 'object') return undefined;
  const fields = error as DriverFields;
  if (typeof fields.code === 'string') return fields.code;
  return codeOf(fields.driverError, depth + 1) ?? codeOf(fields.cause, depth + 1);
}

/** host:port of a connection URL, never its password. */
function endpoint(url: string | undefined): string {
  try {
    const parsed = new URL(url ?? '');
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured server';
  }
}

/** The failure as a StartupError naming DATABASE_URL, PostgreSQL's own words kept where they say what is wrong. */
function startupError(error: unknown, url: string | undefined): StartupError {
  const code = codeOf(error) ?? 'unknown';
  const permanent = PERMANENT_SQLSTATES[code];
  if (permanent) {
    const said = (error as DriverFields).message;
    return new StartupError(`${permanent}${typeof said === 'string' ? ` (${said})` : ''}`, 'DATABASE_URL', error);
  }
  if (isDatabaseUnavailable(error))
    return new StartupError(`PostgreSQL at ${endpoint(url)} could not be reached (${code})`, 'DATABASE_URL', error);
  return new StartupError(`PostgreSQL at ${endpoint(url)} failed at start (${code})`, 'DATABASE_URL', error);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Initializes the data source. A PostgreSQL that cannot be reached yet (starting, network) is retried with
 * doubling waits (0.25 s up to 5 s) for `retryForMs`; anything else (no such database, login refused, a bad
 * URL) fails at once. Either way the failure is one StartupError naming DATABASE_URL, never a retry storm.
 */
export async function initializeAtStart(options: DataSourceOptions, retryForMs: number): Promise<DataSource> {
  const logger = new Logger('Persistence');
  const giveUpAt = Date.now() + retryForMs;
  const url = (options as { url?: string }).url;
  for (let attempt = 1, waitMs = 250; ; attempt += 1, waitMs = Math.min(waitMs * 2, 5000)) {
    try {
      return await new DataSource(options).initialize();
    } catch (error) {
      const code = codeOf(error) ?? '';
      const healable = isDatabaseUnavailable(error) && !(code in PERMANENT_SQLSTATES);
      if (!healable || Date.now() + waitMs > giveUpAt) throw startupError(error, url);
      logger.warn({ attempt, retryInMs: waitMs, err: error, msg: `PostgreSQL at ${endpoint(url)} not reachable yet` });
      await sleep(waitMs);
    }
  }
}
