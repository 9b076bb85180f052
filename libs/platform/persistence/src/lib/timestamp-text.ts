// Read `timestamp` values as the text PostgreSQL sends and write ISO 8601 from it: for hot reads where parsing
// into a Date and formatting it back costs more than the rest of the row (the management policy list).
import { types as pgTypes } from 'pg';

const TIMESTAMP_OID = 1114;
const keepText = (text: string) => text;

/**
 * A pg query's `types` that keep `timestamp` (without time zone) values as the text PostgreSQL sent
 * (`YYYY-MM-DD HH:MM:SS.fff` under the default ISO DateStyle) instead of parsing them as local time.
 */
export const TIMESTAMP_AS_TEXT = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID ? keepText : pgTypes.getTypeParser(oid, format),
};

const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

/** `2026-11-25 18:28:23.77` (UTC) → `2026-11-25T18:28:23.770Z`, what `Date#toISOString` gives for it. */
export function isoFromUtcTimestamp(text: string): string {
  if (!UTC_TIMESTAMP.test(text)) throw new Error(`Unexpected timestamp text from PostgreSQL: ${text}`);
  const fraction = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}
