/** Building blocks of the plain checks (AcceptWhen): each accepts only what the DTO's decorators accept. */
const VARIATION_SELECTOR_ONLY = /^[\uFE0E\uFE0F]*$/;

/**
 * A string of `min` (0 or 1) to `max` UTF-16 units. validator.js counts fewer (a surrogate pair as one, a
 * variation selector as none) and PostgreSQL counts code points, so within these bounds it is within theirs;
 * a string of variation selectors alone is "empty" to validator.js, so it is left to the decorators.
 */
export function isText(value: unknown, min: 0 | 1, max: number): value is string {
  if (typeof value !== 'string' || value.length > max) return false;
  if (min === 0) return true;
  if (value.length === 0) return false;
  const first = value.charCodeAt(0);
  return (first !== 0xfe0e && first !== 0xfe0f) || !VARIATION_SELECTOR_ONLY.test(value);
}
