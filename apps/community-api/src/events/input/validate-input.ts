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
  /**
   * When checks of one property are interleaved with others' (cross-field rules): every `property:constraint`
   * in the order the spec checks them; it replaces the ranking by `order` and `constraints`.
   */
  checks?: readonly string[];
  unknownMessage: (key: string) => string;
}

/** A constraint message may name a nested field (`location.latitude`): `field<NUL>message`. */
export const withField = (field: string, message: string): string => `${field}\u0000${message}`;

function problemOf(property: string, message: string): InputProblem {
  const cut = message.indexOf('\u0000');
  return cut === -1 ? { message, field: property } : { message: message.slice(cut + 1), field: message.slice(0, cut) };
}

/** Every failing check as `[rank, problem]`, ranked by the spec's order. */
function ranked(errors: ValidationError[], rules: InputRules): [number, InputProblem][] {
  const size = rules.order.length * rules.constraints.length + 1;
  return errors.flatMap((error) =>
    Object.entries(error.constraints ?? {}).map(([name, message]): [number, InputProblem] => {
      const explicit = rules.checks?.indexOf(`${error.property}:${name}`) ?? -1;
      const property = rules.order.indexOf(error.property);
      const constraint = rules.constraints.indexOf(name);
      const rank = rules.checks ? (explicit === -1 ? size : explicit) : property === -1 || constraint === -1 ? size : property * rules.constraints.length + constraint;
      return [rank, problemOf(error.property, message)];
    }),
  );
}

/**
 * Validates `plain` against the DTO with class-validator: unknown keys first (in the order sent), then the
 * properties in the spec's order. Returns the DTO instance, or the one problem to report.
 */
export function validateInput<T extends object>(dto: new () => T, plain: Record<string, unknown>, rules: InputRules): { value: T } | { problem: InputProblem } {
  // Own keys as sent, `__proto__` included (class-transformer would drop it silently).
  const unknown = Object.keys(plain).find((key) => !rules.order.includes(key));
  if (unknown !== undefined) return { problem: { message: rules.unknownMessage(unknown), field: unknown } };
  // The values as sent (no transformation: nested JSON stays exactly what the client sent); every key is known here.
  const instance = Object.assign(Object.create(dto.prototype) as T, plain);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length === 0) return { value: instance };
  const [, first] = ranked(errors, rules).sort(([a], [b]) => a - b)[0] as [number, InputProblem];
  return { problem: first };
}

/** One check of one property: `(value, whole input) => message | undefined` (the message may name a nested field, see withField). */
export type InputCheck = readonly [property: string, problem: (value: unknown, input: Record<string, unknown>) => string | undefined];

/**
 * The same verdict as validateInput with `checks` for inputs whose every rule is a plain function: unknown keys
 * first (in the order sent), then the checks in the spec's order, stopping at the first failing one.
 */
export function firstProblem(plain: Record<string, unknown>, properties: readonly string[], checks: readonly InputCheck[], unknownMessage: (key: string) => string): InputProblem | undefined {
  const unknown = Object.keys(plain).find((key) => !properties.includes(key));
  if (unknown !== undefined) return { message: unknownMessage(unknown), field: unknown };
  for (const [property, problem] of checks) {
    const message = problem(plain[property], plain);
    if (message !== undefined) return problemOf(property, message);
  }
  return undefined;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
