import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '@acme/platform-errors';

/** Runs `work` in one transaction; everything it writes commits or nothing does. */
export function withTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(work);
}

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  driverError?: PgError;
}

const pgError = (error: unknown): PgError | undefined => {
  const candidate = error as PgError | null;
  return candidate?.driverError ?? candidate ?? undefined;
};

/** True for a Postgres unique violation (SQLSTATE 23505), optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgError(error);
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/** True for a Postgres foreign-key violation (SQLSTATE 23503): the referenced row does not exist. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const pg = pgError(error);
  return pg?.code === '23503' && (constraint === undefined || pg.constraint === constraint);
}

/** True for a Postgres exclusion-constraint violation (SQLSTATE 23P01), optionally on one named constraint. */
export function isExclusionViolation(error: unknown, constraint?: string): boolean {
  const pg = pgError(error);
  return pg?.code === '23P01' && (constraint === undefined || pg.constraint === constraint);
}

/** Postgres's DETAIL of a constraint violation ("Key (a, b)=(1, x) already exists."), if any. */
export function pgErrorDetail(error: unknown): string | undefined {
  return pgError(error)?.detail;
}

/** Runs `work`, turning a unique violation into the conflict the caller names; other errors pass through. */
export async function mapUniqueViolation<T>(
  work: () => Promise<T>,
  toConflict: (constraint?: string) => AppError,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw toConflict(pgError(error)?.constraint);
    throw error;
  }
}

/** The rows of an `UPDATE`/`DELETE ... RETURNING` run through TypeORM's Postgres driver, which answers `[rows, count]`. */
export function returnedRows<T = unknown>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/** How many rows an `UPDATE`/`DELETE` (without RETURNING) changed: TypeORM's Postgres driver answers `[rows, count]`. */
export function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/** The single row an aggregate or `INSERT ... RETURNING` always yields. */
export function firstRow<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('Expected a row');
  return row;
}
