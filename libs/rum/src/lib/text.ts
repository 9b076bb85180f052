export { isStorableText, toStorableText } from '@acme/platform-errors';

/** `\u0000` and lone-surrogate escapes in JSON text, unless their backslash is itself escaped. */
const ESCAPED_UNSTORABLE = /(?<!\\)((?:\\\\)*)\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/g;

/**
 * JSON.stringify writes NUL as `\u0000`, valid surrogate pairs as characters and lone surrogates as `\udXXX`
 * escapes; Postgres refuses NUL and lone surrogates as text, so those escapes become U+FFFD and a client's odd
 * string cannot fail a batch.
 */
export function toPostgresJson(value: unknown): string {
  return JSON.stringify(value).replace(ESCAPED_UNSTORABLE, '$1\\ufffd');
}
