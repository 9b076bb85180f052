import { parseIsoDateTime } from '@acme/events';
import { isUuid } from '@acme/platform-persistence';

/**
 * Rules for the events query parameters (all values are text), each `(value) => message | undefined` in the
 * spec's wording, for `@Satisfies`. Each accepts an absent parameter; a parameter sent twice (`?a=1&a=2`) or
 * with brackets arrives as an array or object and is not a single value.
 */
type Problem = (value: unknown) => string | undefined;

const INTEGER = /^\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

export const oneOf =
  (field: string, allowed: readonly string[]): Problem =>
  (value) =>
    value === undefined || (typeof value === 'string' && allowed.includes(value))
      ? undefined
      : `${field} must be one of ${allowed.join(', ')}`;

const singleValue = (field: string, value: unknown) =>
  value === undefined || (typeof value === 'string' && value.length > 0 && value.length <= 200)
    ? undefined
    : `${field} must be a single non-empty value`;

/** A parameter sent once, 1 to 200 characters, then its own rule. */
export const single =
  (field: string, own?: Problem): Problem =>
  (value) =>
    singleValue(field, value) ?? own?.(value);

/** Digits (an integer) or a decimal, as text, read as a number within `min`..`max`. */
const numberText =
  (pattern: RegExp, noun: 'an integer' | 'a number', within: (number: number) => boolean) =>
  (field: string, min: number, max: number): Problem =>
  (value) => {
    if (value === undefined) return undefined;
    const number = typeof value === 'string' && pattern.test(value) ? Number(value) : NaN;
    return within(number) && number >= min && number <= max
      ? undefined
      : `${field} must be ${noun} from ${min} to ${max}`;
  };

export const integerText = numberText(INTEGER, 'an integer', Number.isSafeInteger);
export const decimalText = numberText(DECIMAL, 'a number', Number.isFinite);

export const parseDateText = (value: string): Date | undefined => parseIsoDateTime(value, { dateOnly: true });

export const dateText =
  (field: string): Problem =>
  (value) =>
    value === undefined || (typeof value === 'string' && parseDateText(value) !== undefined)
      ? undefined
      : `${field} must be an ISO 8601 date or date-time`;

export const uuidText =
  (field: string): Problem =>
  (value) =>
    value === undefined || isUuid(value) ? undefined : `${field} must be a UUID`;
