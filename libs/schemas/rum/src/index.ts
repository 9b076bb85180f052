/** The PostgreSQL schema of the RUM domain; every qualified name is built from it. */
export const RUM_SCHEMA = 'rum';

/** The schema-qualified, quoted name of a table, for SQL text (repositories only). */
export const rumTable = (name: string): string => `"${RUM_SCHEMA}"."${name}"`;
