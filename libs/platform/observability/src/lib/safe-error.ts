/**
 * Errors as log lines may hold them: a database error keeps only its SQLSTATE, constraint, table and query
 * text, never its parameters, detail or message (they carry user data: password digests, token digests,
 * the offending values). Anything else thrown (a plain object, a string, an AggregateError) keeps its type,
 * message and causes, so a log line always says what failed. See docs/security.md and docs/operations.md.
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
  error?: unknown;
  errors?: unknown;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
const MAX_DEPTH = 3;
const MAX_TEXT = 500;
const MAX_FIELDS = 12;
/** Fields of a thrown object never logged: they may hold credentials or the values a query was given. */
const SECRET_FIELD = /pass|secret|token|auth|cookie|key|credential|digest|hash|parameters|detail|hint|where|body/i;
/** Fields rendered on their own (or dropped): the rest of a thrown object's own fields are copied. */
const STRUCTURAL = new Set(['type', 'name', 'message', 'stack', 'cause', 'error', 'errors', 'driverError']);

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
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** The error's class: its `name`, else its constructor's, else `object`. */
function typeOf(error: object): string {
  const name = (error as ErrorFields).name;
  if (typeof name === 'string' && name !== '') return name;
  const constructor = (error as { constructor?: { name?: unknown } }).constructor;
  return typeof constructor?.name === 'string' && constructor.name !== 'Object' && constructor.name !== ''
    ? constructor.name
    : 'object';
}

/**
 * pino-http wraps every `err` serializer in pino's own (pino-std-serializers' wrapErrorSerializer), which hands
 * ours a copy carrying the thrown value on a non-enumerable `raw`: we read the original, never the copy (the copy
 * is a plain object, and it lists every field, parameters included).
 */
function original(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Error) return value;
  const raw = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(value) ?? {}, 'raw');
  return raw?.get ? (value as { raw: unknown }).raw : value;
}

/** One line for a log message: the SQLSTATE for a database error, else the error's own message. */
export function safeErrorMessage(thrown: unknown): string {
  const error = original(thrown);
  if (error === null || typeof error !== 'object') return clip(String(error));
  const database = databaseError(error as ErrorFields);
  if (database) return `${typeOf(error)} (SQLSTATE ${String(database.code ?? 'unknown')})`;
  const message = (error as ErrorFields).message;
  return typeof message === 'string' ? clip(message) : typeOf(error);
}

/** The `err` serializer of every log line (pino). */
export function serializeError(thrown: unknown, depth = 0): Record<string, unknown> {
  const error = original(thrown);
  if (error === null || typeof error !== 'object') return { type: typeof error, message: clip(String(error)) };
  const fields = error as ErrorFields;
  const database = databaseError(fields);
  if (database) {
    return {
      type: typeOf(error),
      message: safeErrorMessage(error),
      sqlstate: database.code,
      constraint: database.constraint,
      table: database.table,
      query: typeof fields.query === 'string' ? fields.query.slice(0, 2000) : undefined,
      stack: framesOnly(fields.stack),
    };
  }
  const serialized: Record<string, unknown> = { type: typeOf(error), message: safeErrorMessage(error) };
  if (error instanceof Error) serialized['stack'] = fields.stack;
  else Object.assign(serialized, ownFields(error));
  if (typeof fields.code === 'string' || typeof fields.code === 'number') serialized['code'] = fields.code;
  if (depth < MAX_DEPTH) {
    if (fields.cause !== undefined) serialized['cause'] = serializeError(fields.cause, depth + 1);
    if (fields.error !== undefined) serialized['error'] = serializeError(fields.error, depth + 1);
    if (Array.isArray(fields.errors))
      serialized['errors'] = fields.errors.slice(0, 5).map((inner) => serializeError(inner, depth + 1));
  }
  return serialized;
}

/** A thrown non-Error's own enumerable string, number and boolean fields, secrets and query values left out. */
function ownFields(error: object): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(error).slice(0, 50)) {
    if (STRUCTURAL.has(name) || SECRET_FIELD.test(name) || Object.keys(kept).length >= MAX_FIELDS) continue;
    if (typeof value === 'string') kept[name] = clip(value);
    else if (typeof value === 'number' || typeof value === 'boolean') kept[name] = value;
  }
  return kept;
}
