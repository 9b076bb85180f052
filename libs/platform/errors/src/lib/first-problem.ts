import { getMetadataStorage, ValidationError, validateSync, ValidatorOptions } from 'class-validator';
import { AppError } from './app-error';
import { PlatformErrorCode } from './platform-error-code';
import { isPlainObject, Satisfies } from './validators';

/** How a DTO marked `@ReportsFirstProblem` words what class-validator cannot word per DTO. */
export interface FirstProblemOptions {
  /** A key the DTO does not declare (`key` is its dotted path). */
  unknownKey: (key: string) => string;
  /** The value is not a JSON object (a body of `[]`, `"x"` or `null`). */
  notAnObject?: string;
  /** An absent value (no body at all) is validated as `{}`. */
  absentIsEmpty?: boolean;
}

const FIRST_PROBLEM = new WeakMap<object, FirstProblemOptions>();
const DECLARED = new WeakMap<object, ReadonlySet<string>>();
/** Per DTO class, `property:constraint` of rules that name a nested field (`SatisfiesNested`). */
const NESTED_FIELDS = new WeakMap<object, Map<string, NestedRule>>();

export type NestedRule = (
  value: unknown,
  object: Record<string, unknown>,
) => { field: string; message: string } | undefined;

/**
 * `Satisfies` for a rule about a nested value whose problem names its own field (`location.latitude`);
 * answered as the field of a `@ReportsFirstProblem` DTO's error.
 */
export function SatisfiesNested(name: string, rule: NestedRule): PropertyDecorator {
  return (target, property) => {
    const rules = NESTED_FIELDS.get(target.constructor) ?? new Map<string, NestedRule>();
    rules.set(`${String(property)}:${name}`, rule);
    NESTED_FIELDS.set(target.constructor, rules);
    Satisfies(name, (value, object) => rule(value, object)?.message)(target, property);
  };
}
/**
 * Class decorator for a DTO whose spec answers one problem per request, in a fixed order: the first key it
 * does not declare (own keys in the order sent, `__proto__` included), then its properties in declaration
 * order, each with its first failing constraint. The error names the field (`details.field`): the property,
 * or the dotted path a `SatisfiesNested` rule names (`location.latitude`).
 * Values are validated as sent: no class-transformer copy, nothing converted or stripped.
 */
export const ReportsFirstProblem =
  (options: FirstProblemOptions): ClassDecorator =>
  (target) =>
    void FIRST_PROBLEM.set(target, options);

export const firstProblemOptions = (Dto: object): FirstProblemOptions | undefined => FIRST_PROBLEM.get(Dto);

function declaredKeys(Dto: new () => object): ReadonlySet<string> {
  let keys = DECLARED.get(Dto);
  if (!keys) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(Dto, '', false, false);
    keys = new Set(metadata.map((entry) => entry.propertyName));
    DECLARED.set(Dto, keys);
  }
  return keys;
}

/** `details.dto` names the DTO that refused the input (a platform rule before it, e.g. unstorable text, does not). */
function refused(Dto: { name: string }, message: string, field: string | undefined, location: string): AppError {
  const issues = field === undefined ? [] : [{ property: field, constraints: [message] }];
  return new AppError(PlatformErrorCode.VALIDATION_FAILED, 'validation', message, {
    details: { location, ...(field === undefined ? {} : { field }), issues, dto: Dto.name },
  });
}

function firstOf(
  errors: readonly ValidationError[],
  options: FirstProblemOptions,
  dto: Record<string, unknown>,
  parent = '',
): { message: string; field: string } | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const [name, message] = Object.entries(error.constraints ?? {})[0] ?? [];
    if (message !== undefined) {
      if (name === 'whitelistValidation') return { message: options.unknownKey(path), field: path };
      const nested = parent ? undefined : NESTED_FIELDS.get(dto.constructor)?.get(`${path}:${name}`);
      return nested?.(dto[path], dto) ?? { message, field: path };
    }
    const inner = firstOf(error.children ?? [], options, dto, path);
    if (inner) return inner;
  }
  return undefined;
}

/** The DTO instance holding `value` as sent, or the AppError naming its first problem (see ReportsFirstProblem). */
export function validateFirstProblem<T extends object>(
  Dto: new () => T,
  value: unknown,
  location: string,
  options: FirstProblemOptions,
  validatorOptions: ValidatorOptions,
): T {
  const input = (value === undefined || value === null) && options.absentIsEmpty ? {} : value;
  if (!isPlainObject(input))
    throw refused(Dto, options.notAnObject ?? `The ${location} must be a JSON object`, undefined, location);
  const declared = declaredKeys(Dto);
  const unknown = Object.keys(input).find((key) => !declared.has(key));
  if (unknown !== undefined) throw refused(Dto, options.unknownKey(unknown), unknown, location);
  // Not `new Dto()`: class fields would add every declared key (as undefined), documented-only ones included.
  const dto = Object.assign(Object.create(Dto.prototype) as T, input);
  const problem = firstOf(validateSync(dto, validatorOptions), options, dto as Record<string, unknown>);
  if (problem) throw refused(Dto, problem.message, problem.field, location);
  return dto;
}
