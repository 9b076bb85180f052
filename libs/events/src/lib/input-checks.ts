import { invalidBody } from './events.errors';

/** Small checks shared by the event and image-option parsers; each failure names its field. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidBody(`${field} must be an object`, field);
  return value;
}

export function rejectUnknown(value: Record<string, unknown>, allowed: readonly string[], field: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    throw invalidBody(`${field ? `${field}.` : ''}${unknown} is not allowed`, field ? `${field}.${unknown}` : unknown);
}

export function intInRange(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidBody(`${field} must be an integer from ${min} to ${max}`, field);
  }
  return value;
}

export function positiveNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw invalidBody(`${field} must be a positive number`, field);
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidBody(`${field} must be one of ${allowed.join(', ')}`, field);
  }
  return value as T;
}

/**
 * Characters as the spec counts them: Unicode code points, as PostgreSQL's char_length does (an emoji is one,
 * not the two UTF-16 units of `.length`; docs/community-api.md#events).
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export function optionalString(value: unknown, field: string, max = 10000): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || characterCount(value) > max)
    throw invalidBody(`${field} must be a string of at most ${max} characters`, field);
  return value;
}

/** Multipart carries JSON values as strings; a string that does not parse is a body error naming the field. */
export function parseJsonField(value: string, field: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalidBody(`${field} must be valid JSON`, field);
  }
}
