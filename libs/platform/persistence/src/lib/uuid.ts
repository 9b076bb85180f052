const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in uuid columns are opaque strings to clients: test first, so anything else matches nothing instead of failing the cast. */
export const isUuid = (value: string): boolean => UUID.test(value);
