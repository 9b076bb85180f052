import { isPlainObject } from '@acme/platform-errors';
import { EventErrors } from './events.errors';

/** Small checks shared by the image-option parser and the upload checks; each failure names its field. */
export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw EventErrors.invalidInput(`${field} must be an object`, field);
  return value;
}

export function rejectUnknown(value: Record<string, unknown>, allowed: readonly string[], field: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    throw EventErrors.invalidInput(
      `${field ? `${field}.` : ''}${unknown} is not allowed`,
      field ? `${field}.${unknown}` : unknown,
    );
}

export function intInRange(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw EventErrors.invalidInput(`${field} must be an integer from ${min} to ${max}`, field);
  }
  return value;
}

export function positiveNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw EventErrors.invalidInput(`${field} must be a positive number`, field);
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw EventErrors.invalidInput(`${field} must be one of ${allowed.join(', ')}`, field);
  }
  return value as T;
}

/** Multipart carries JSON values as strings; a string that does not parse is a body error naming the field. */
export function parseJsonField(value: string, field: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw EventErrors.invalidInput(`${field} must be valid JSON`, field);
  }
}
