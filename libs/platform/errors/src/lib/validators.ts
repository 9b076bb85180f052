import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Characters as PostgreSQL counts them for varchar(n) and length(): Unicode code points. A surrogate pair is
 * one; a variation selector or combining mark is one more (validator.js's isLength skips those, so a value it
 * passes could overflow the column: docs/decisions.md#lengths-count-code-points).
 */
export function characterCount(value: string): number {
  let pairs = 0;
  for (let index = 0; index < value.length - 1; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs += 1;
        index += 1;
      }
    }
  }
  return value.length - pairs;
}

const lengthWithin = (value: unknown, min: number, max: number) => {
  if (typeof value !== 'string') return false;
  // Cheap bounds first: a string's code points lie between half its UTF-16 length and its length.
  if (value.length < min || Math.ceil(value.length / 2) > max) return false;
  if (value.length <= max && value.length / 2 >= min) return true;
  const length = characterCount(value);
  return length >= min && length <= max;
};

/** A JSON object: not null, not an array (the one definition; a body's or a nested value's shape check). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * class-validator's `Length`, counting code points as PostgreSQL does; same constraint name (`isLength`) and
 * messages, so error bodies do not change.
 */
export function CodePointLength(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => lengthWithin(value, min, max),
        defaultMessage: buildMessage((each, args) => {
          // The same three messages, chosen as class-validator chooses them.
          const value = args?.value as unknown;
          const length = typeof value === 'string' ? characterCount(value) : undefined;
          if (!value || (length !== undefined && length < min))
            return `${each}$property must be longer than or equal to $constraint1 characters`;
          if (length !== undefined && length > max)
            return `${each}$property must be shorter than or equal to $constraint2 characters`;
          return `${each}$property must be longer than or equal to $constraint1 and shorter than or equal to $constraint2 characters`;
        }, options),
      },
    },
    options,
  );
}

/** class-validator's `MaxLength` (constraint `maxLength`), counting code points as PostgreSQL does. */
export function MaxCodePoints(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxLength',
      constraints: [max],
      validator: {
        validate: (value: unknown) => lengthWithin(value, 0, max),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be shorter than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/** class-validator's `MinLength` (constraint `minLength`), counting code points as PostgreSQL does. */
export function MinCodePoints(min: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'minLength',
      constraints: [min],
      validator: {
        validate: (value: unknown) => lengthWithin(value, min, Number.POSITIVE_INFINITY),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be longer than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * class-validator's `ArrayUnique` (constraint `arrayUnique`, same message) in one pass over a Set: that one
 * compares every pair, seconds for 10,000 ids (issue 25). Objects compare by reference, as there.
 */
export function UniqueItems(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'arrayUnique',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && new Set(value).size === value.length,
        defaultMessage: buildMessage((each) => `${each}All $property's elements must be unique`, options),
      },
    },
    options,
  );
}

/**
 * A rule no class-validator decorator words as the spec does (a cross-field rule, a message of its own):
 * `problem` returns the message, or undefined when the value passes; it sees the whole object as sent.
 */
export function Satisfies(
  name: string,
  problem: (value: unknown, object: Record<string, unknown>) => string | undefined,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown, args) => problem(value, args?.object as Record<string, unknown>) === undefined,
        defaultMessage: (args) => problem(args?.value, args?.object as Record<string, unknown>) ?? '',
      },
    },
    options,
  );
}
