/** The PostgreSQL schema of every community table (projects, users, verification, push, events). */
export const COMMUNITY_SCHEMA = 'community';

/** The schema-qualified, quoted name of a community table, for raw SQL in repositories. */
export const communityTable = (table: string): string => `"${COMMUNITY_SCHEMA}"."${table}"`;
