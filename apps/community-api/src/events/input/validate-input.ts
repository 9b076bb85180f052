import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';

export interface InputProblem {
  message: string;
  /** The offending property; absent when the whole input is wrong. */
  field?: string;
}

export interface InputRules {
  /** Every property of the DTO, in the order the spec checks them: the first one failing is reported. */
  order: readonly string[];
  /** Constraint names in the order they are checked within one property. */
  constraints: readonly string[];
  unknownMessage: (key: string) => string;
}

const pickConstraint = (error: ValidationError, rules: InputRules): string => {
  const constraints = error.constraints ?? {};
  const name = rules.constraints.find((candidate) => candidate in constraints) ?? Object.keys(constraints)[0];
  return (name && constraints[name]) || `${error.property} is invalid`;
};

/**
 * Validates `plain` against the DTO with class-validator: unknown keys first (in the order sent), then the
 * properties in the spec's order. Returns the DTO instance, or the one problem to report.
 */
export function validateInput<T extends object>(dto: ClassConstructor<T>, plain: Record<string, unknown>, rules: InputRules): { value: T } | { problem: InputProblem } {
  // Own keys as sent, `__proto__` included (class-transformer would drop it silently).
  const unknown = Object.keys(plain).find((key) => !rules.order.includes(key));
  if (unknown !== undefined) return { problem: { message: rules.unknownMessage(unknown), field: unknown } };
  const instance = plainToInstance(dto, plain);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length === 0) return { value: instance };
  const rank = (error: ValidationError) => {
    const index = rules.order.indexOf(error.property);
    return index === -1 ? rules.order.length : index;
  };
  const first = [...errors].sort((a, b) => rank(a) - rank(b))[0] as ValidationError;
  return { problem: { message: pickConstraint(first, rules), field: first.property } };
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
