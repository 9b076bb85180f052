/** The two groups of area C; anything else a diff finds is informational and left out of the change log. */
export type ChangeGroup = 'breaking' | 'potentially-breaking';
export type ChangeKind = 'Added' | 'Removed' | 'Changed' | 'Deprecated';

/** One line of the change log, as the JSON output carries it. */
export interface Change {
  group: ChangeGroup;
  kind: ChangeKind;
  method: string;
  path: string;
  description: string;
}

/** A change with the id of the check that produced it (kept out of the JSON output, used by tests and filters). */
export interface ClassifiedChange extends Change {
  check: string;
}

/** Bad input: unreadable file, invalid document, unresolved $ref, Swagger 2.0. The CLI prints the message and exits 2. */
export class ChangelogInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChangelogInputError';
  }
}

/** A dereferenced OpenAPI 3.0/3.1 document; only the parts the diff reads are typed. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, JsonObject>;
  security?: JsonObject[];
}
