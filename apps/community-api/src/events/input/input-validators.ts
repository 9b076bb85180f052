import { ValidateBy, ValidationArguments } from 'class-validator';
import { isUuid } from '@acme/platform-persistence';

/**
 * class-validator constraints for the events routes, each with the spec's message. Each accepts an absent
 * value (the optional parameters); `required` and the cross-field rules decide about absence themselves.
 */
const constraint = (name: string, valid: (value: unknown, object: Record<string, unknown>) => boolean, message: (property: string) => string) =>
  ValidateBy({ name, validator: { validate: (value, args) => valid(value, (args?.object ?? {}) as Record<string, unknown>), defaultMessage: (args?: ValidationArguments) => message(args?.property ?? '') } });

const INTEGER = /^\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const ISO_DATE_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;

/** A query value sent once, 1 to 200 characters (`?a=1&a=2` and `?a[b]=1` are not single values). */
export const IsSingleValue = () =>
  constraint('singleValue', (value) => value === undefined || (typeof value === 'string' && value.length > 0 && value.length <= 200), (property) => `${property} must be a single non-empty value`);

export const IsIntegerText = (min: number, max: number) =>
  constraint(
    'integerText',
    (value) => {
      if (value === undefined) return true;
      const number = typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
      return Number.isSafeInteger(number) && number >= min && number <= max;
    },
    (property) => `${property} must be an integer from ${min} to ${max}`,
  );

export const IsDecimalText = (min: number, max: number) =>
  constraint(
    'decimalText',
    (value) => {
      if (value === undefined) return true;
      const number = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : NaN;
      return Number.isFinite(number) && number >= min && number <= max;
    },
    (property) => `${property} must be a number from ${min} to ${max}`,
  );

export const parseDateText = (value: string): Date | undefined => {
  const date = ISO_DATE_OR_DATETIME.test(value) ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
};

export const IsDateText = () =>
  constraint('dateText', (value) => value === undefined || (typeof value === 'string' && parseDateText(value) !== undefined), (property) => `${property} must be an ISO 8601 date or date-time`);

export const IsOneOf = (allowed: readonly string[]) =>
  constraint('oneOf', (value) => value === undefined || (typeof value === 'string' && allowed.includes(value)), (property) => `${property} must be one of ${allowed.join(', ')}`);

export const IsUuidText = () => constraint('uuidText', (value) => value === undefined || isUuid(value), (property) => `${property} must be a UUID`);

/** Present (a body property the spec requires). */
export const IsPresent = () => constraint('required', (value) => value !== undefined, (property) => `${property} is required`);

/** Other constraints of the same property, declared as `(value, object) => message | undefined`. */
export const Satisfies = (name: string, problem: (value: unknown, object: Record<string, unknown>) => string | undefined) =>
  ValidateBy({
    name,
    validator: {
      validate: (value, args) => problem(value, (args?.object ?? {}) as Record<string, unknown>) === undefined,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value, (args?.object ?? {}) as Record<string, unknown>) ?? '',
    },
  });
