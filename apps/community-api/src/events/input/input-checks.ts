import { parseIsoDateTime } from '@acme/events';
import { isUuid } from '@acme/platform-persistence';

/**
 * Checks shared by the events inputs, each `(value) => message | undefined` with the spec's message. Each
 * accepts an absent value (optional parameters); `required` and the cross-field rules decide about absence.
 */
type Check = (value: unknown) => string | undefined;

const INTEGER = /^\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Present (a body property the spec requires). */
export const required =
  (field: string): Check =>
  (value) =>
    value === undefined ? `${field} is required` : undefined;

export const oneOf =
  (field: string, allowed: readonly string[]): Check =>
  (value) =>
    value === undefined || (typeof value === 'string' && allowed.includes(value))
      ? undefined
      : `${field} must be one of ${allowed.join(', ')}`;

/** A query value sent once, 1 to 200 characters (`?a=1&a=2` and `?a[b]=1` are not single values). */
export const singleValue =
  (field: string): Check =>
  (value) =>
    value === undefined || (typeof value === 'string' && value.length > 0 && value.length <= 200)
      ? undefined
      : `${field} must be a single non-empty value`;

export const integerText =
  (field: string, min: number, max: number): Check =>
  (value) => {
    if (value === undefined) return undefined;
    const number = typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
    return Number.isSafeInteger(number) && number >= min && number <= max
      ? undefined
      : `${field} must be an integer from ${min} to ${max}`;
  };

export const decimalText =
  (field: string, min: number, max: number): Check =>
  (value) => {
    if (value === undefined) return undefined;
    const number = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : NaN;
    return Number.isFinite(number) && number >= min && number <= max
      ? undefined
      : `${field} must be a number from ${min} to ${max}`;
  };

export const parseDateText = (value: string): Date | undefined => parseIsoDateTime(value, { dateOnly: true });

export const dateText =
  (field: string): Check =>
  (value) =>
    value === undefined || (typeof value === 'string' && parseDateText(value) !== undefined)
      ? undefined
      : `${field} must be an ISO 8601 date or date-time`;

export const uuidText =
  (field: string): Check =>
  (value) =>
    value === undefined || isUuid(value) ? undefined : `${field} must be a UUID`;
