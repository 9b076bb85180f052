const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a textual UUID (any version, either case): ids that are not are never looked up (PostgreSQL would reject the cast). */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
