/**
 * Errors as log lines may hold them: a database error keeps only its SQLSTATE, constraint, table and query
 * text, never its parameters, detail or message (they carry user data: password digests, token digests,
 * the offending values). See docs/security.md.
 */
interface ErrorFields {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  query?: unknown;
  severity?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The driver's error under TypeORM's wrapper, or the error itself when it came from pg. */
function databaseError(error: ErrorFields): ErrorFields | undefined {
  const driver = (error.driverError ?? error) as ErrorFields;
  if (
    typeof driver?.code === 'string' &&
    SQLSTATE.test(driver.code) &&
    (driver.severity !== undefined || error.driverError !== undefined)
  )
    return driver;
  return error.driverError !== undefined ? driver : undefined;
}

const framesOnly = (stack: unknown) => (typeof stack === 'string' ? stack.split('\n').slice(1).join('\n') : undefined);
const typeOf = (error: ErrorFields) => (typeof error.name === 'string' ? error.name : 'Error');

/** One line for a log message: the SQLSTATE for a database error, else the error's own message. */
export function safeErrorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const database = databaseError(error as ErrorFields);
  if (database) return `${typeOf(error as ErrorFields)} (SQLSTATE ${String(database.code ?? 'unknown')})`;
  return error.message;
}

/** The `err` serializer of every log line (pino). */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: safeErrorMessage(error) };
  const fields = error as ErrorFields;
  const database = databaseError(fields);
  if (database) {
    return {
      type: typeOf(fields),
      sqlstate: database.code,
      constraint: database.constraint,
      table: database.table,
      query: typeof fields.query === 'string' ? fields.query.slice(0, 2000) : undefined,
      stack: framesOnly(fields.stack),
    };
  }
  const serialized: Record<string, unknown> = { type: typeOf(fields), message: error.message, stack: fields.stack };
  if (typeof fields.code === 'string' || typeof fields.code === 'number') serialized['code'] = fields.code;
  if (depth < 3 && fields.cause !== undefined) serialized['cause'] = serializeError(fields.cause, depth + 1);
  if (depth < 3 && Array.isArray(fields.errors))
    serialized['errors'] = fields.errors.slice(0, 5).map((inner) => serializeError(inner, depth + 1));
  return serialized;
}
