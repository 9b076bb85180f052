import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidateBy, ValidationOptions } from 'class-validator';
import { configurationProblems, parseConsumerSelector } from '@acme/policies';

/** Query integers: anything but a plain decimal string stays invalid (arrays, `1.5`, `abc`, ``). */
export const ToInt = () =>
  Transform(({ value }) => (typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value));

/**
 * An optional page size query parameter, 1-100, default 50 (`per_page`, `take`). Applied in the order stacked
 * decorators would be (bottom first), so its errors read exactly as before.
 */
export const PageSize = () =>
  applyDecorators(
    IsOptional(),
    Max(100),
    Min(1),
    IsInt(),
    ToInt(),
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 }),
  );

export const ToBoolean = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

export function IsConsumerSelector(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isConsumerSelector',
      validator: {
        validate: (value) => parseConsumerSelector(value) !== undefined,
        defaultMessage: (args) =>
          `${args?.property} must be one of client_id:<client_id>, client_id:<https URI>, cimd_clients, third_party_clients, default (max 255 characters)`,
      },
    },
    options,
  );
}

export function IsPolicyConfiguration(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPolicyConfiguration',
      validator: {
        validate: (value) => configurationProblems(value).length === 0,
        defaultMessage: (args) => configurationProblems(args?.value).join('; '),
      },
    },
    options,
  );
}
