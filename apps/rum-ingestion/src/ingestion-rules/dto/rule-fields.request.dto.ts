import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { IsString, Matches, registerDecorator, ValidationArguments } from 'class-validator';
import { findFiltersProblem, isStorableText } from '@acme/rum';

export const APPLICATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const RULE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Postgres refuses NUL and unpaired surrogates; refusing them here keeps a client's mistake a 400. */
export function IsStorableText(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStorableText',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must not contain NUL or unpaired surrogate characters`,
      },
    });
}

/** Delegates to the domain's filter rules, so the DTO and the service agree on what is valid. */
export function IsFilters(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isFilters',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => findFiltersProblem(value) === undefined,
        defaultMessage: (args?: ValidationArguments) => findFiltersProblem(args?.value) ?? 'filters are invalid',
      },
    });
}

export const FILTERS_SCHEMA: ApiPropertyOptions = {
  type: 'array',
  description: 'OR of AND-groups of conditions',
  items: {
    type: 'array',
    items: {
      type: 'object',
      required: ['key', 'oper', 'vals'],
      properties: {
        key: { type: 'string', example: 'error.error_type' },
        oper: { type: 'string', enum: ['IN', 'NOT IN', 'CONTAINS', 'NOT CONTAINS'] },
        vals: { type: 'array', items: { type: 'string' } },
      },
    },
  },
} as ApiPropertyOptions;

export class ApplicationScoped {
  @ApiProperty({ example: '6f1c2a9e0b7d4c3e8a5f1b2c' })
  @IsString()
  @Matches(APPLICATION_ID_PATTERN, { message: 'application_id is not valid' })
  readonly application_id!: string;
}

export class RuleReference extends ApplicationScoped {
  @ApiProperty()
  @IsString()
  @Matches(RULE_ID_PATTERN, { message: 'rule_id is not valid' })
  readonly rule_id!: string;
}
