import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from './app-error';
import { firstProblemOptions, validateFirstProblem } from './first-problem';
import { PlatformErrorCode } from './platform-error-code';

export interface ValidationIssue {
  property: string;
  constraints: string[];
}

/** Flattens nested class-validator errors into dotted property paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ValidationIssue[] {
  return errors.flatMap((error) => {
    const property = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ property, constraints: Object.values(error.constraints) }] : [];
    return [...own, ...flattenValidationErrors(error.children ?? [], property)];
  });
}

export function validationFailed(issues: ValidationIssue[], location = 'body'): AppError {
  const first = issues[0];
  const message = first ? `${first.constraints[0] ?? `${first.property} is invalid`}` : 'Invalid request';
  return new AppError(PlatformErrorCode.VALIDATION_FAILED, 'validation', message, { details: { location, issues } });
}

/** A plain check; big bodies check asynchronously, in chunks that yield to the event loop (`everyInChunks`). */
export type AcceptCheck = (value: unknown) => boolean | Promise<boolean>;

const ACCEPT_CHECKS = new WeakMap<object, AcceptCheck>();

/**
 * Class decorator for a DTO whose common valid payloads a plain check recognises: a payload the check accepts
 * is taken as sent (no class-transformer, no class-validator: ~7 % of a small route's CPU); any other payload is
 * validated by the decorators as before, so answers are unchanged as long as the check accepts only payloads
 * the decorators accept without changing them (each such DTO has a spec comparing both). A check may also throw
 * the AppError the request deserves (e.g. unstorable text found while it walks a big body).
 */
export const AcceptWhen =
  (check: AcceptCheck): ClassDecorator =>
  (target) =>
    void ACCEPT_CHECKS.set(target, check);

/** True for a plain JSON object whose own keys are exactly `keys`, in any order. */
export function hasExactlyKeys(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key) => keys.includes(key));
}

/**
 * An own key named like something every object or class already has (`constructor`, `hasOwnProperty`,
 * `__proto__`, `prototype`): class-transformer drops some of them and class-validator's whitelist finds the
 * others on Object.prototype, so they would pass as known. No DTO declares such a property.
 */
function inheritedNameKey(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).find((key) => key === 'prototype' || key in Object.prototype);
}

/**
 * The global pipe: unknown properties are errors, payloads become DTO instances, and the failure says
 * where it was found (`body`, `query`, `param`) so presenters can name it.
 */
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const Dto = metadata.metatype as (new () => object) | undefined;
    const firstProblem = Dto && metadata.type !== 'custom' ? firstProblemOptions(Dto) : undefined;
    if (Dto && firstProblem)
      return validateFirstProblem(Dto, value, metadata.type, firstProblem, this.validatorOptions);
    const check = Dto && metadata.type !== 'custom' ? ACCEPT_CHECKS.get(Dto) : undefined;
    if (Dto && check && (await check(value))) return Object.assign(new Dto(), value);
    const inherited = metadata.type !== 'custom' && this.toValidate(metadata) ? inheritedNameKey(value) : undefined;
    if (inherited !== undefined)
      throw validationFailed(
        [{ property: inherited, constraints: [`property ${inherited} should not exist`] }],
        metadata.type,
      );
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
        const issues = (error.details?.['issues'] as ValidationIssue[]) ?? [];
        throw validationFailed(issues, metadata.type);
      }
      throw error;
    }
  }
}

const PIPE = new AppValidationPipe();

/**
 * The global pipe's answer for a value the framework does not bind (a multipart body read by the handler):
 * the same DTO rules and the same errors as a `@Body()` parameter.
 */
export async function validateBody<T extends object>(Dto: new () => T, value: unknown): Promise<T> {
  return (await PIPE.transform(value, { type: 'body', metatype: Dto })) as T;
}
