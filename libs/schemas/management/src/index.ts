/** The PostgreSQL schema of the management service's tables (clients, grants, keys, rate-limit policies). */
export const MANAGEMENT_SCHEMA = 'management';

/** A table name qualified with the management schema, quoted for raw SQL. */
export const managementTable = (table: string): string => `"${MANAGEMENT_SCHEMA}"."${table}"`;
