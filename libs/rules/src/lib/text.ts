/** A UTF-16 surrogate without its partner: Postgres JSON refuses the `\ud800` escape JSON.stringify writes for it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text Postgres can store as text and inside jsonb: no NUL and no lone surrogate. */
export function isStorableText(value: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** Replaces lone surrogates with U+FFFD and drops NUL (for copies we keep, such as audit entries). */
export function toStorableText(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd').replaceAll('\u0000', '');
}

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
