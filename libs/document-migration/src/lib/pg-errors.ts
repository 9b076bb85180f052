interface PgLike {
  code?: string;
  constraint?: string;
  detail?: string;
  driverError?: PgLike;
}

/** The Postgres error under TypeORM's QueryFailedError, if any. */
export function pgError(error: unknown): PgLike | undefined {
  const candidate = error as PgLike | null;
  if (!candidate || typeof candidate !== 'object') return undefined;
  return candidate.driverError ?? candidate;
}

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_EXCLUSION_VIOLATION = '23P01';

export const hasPgCode = (error: unknown, code: string): boolean => pgError(error)?.code === code;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids in our uuid columns are opaque strings to clients: anything else simply matches nothing. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** TypeORM's Postgres driver answers an UPDATE/DELETE with `[rows, rowCount]`. */
export const affectedRows = (result: unknown): number => (Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0);

/** The single row an aggregate or RETURNING query always yields. */
export function firstRow<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('Expected a row');
  return row;
}
