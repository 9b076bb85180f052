import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Empty or missing stays undefined (the class default applies); anything else goes through Number(). */
const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

const toBoolean = ({ value }: { value: unknown }) =>
  value === undefined
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === false || value === 'false' || value === '0'
        ? false
        : value;

export interface EnvIntOptions {
  min?: number;
  max?: number;
  /** No value and no class default is allowed (the property stays undefined). */
  optional?: boolean;
}

/**
 * `@Transform(toInt) @IsInt() @Min(min) @Max(max) [@IsOptional()]` in one decorator. Listed in source order
 * and applied bottom-up like a written stack, so error messages keep their order.
 */
export function EnvInt(options: EnvIntOptions = {}): PropertyDecorator {
  const stack: PropertyDecorator[] = [Transform(toInt), IsInt()];
  if (options.min !== undefined) stack.push(Min(options.min));
  if (options.max !== undefined) stack.push(Max(options.max));
  if (options.optional) stack.push(IsOptional());
  return applyDecorators(...stack.reverse());
}

/** `@Transform(toBoolean) @IsBoolean()`: accepts true/false/1/0; anything else fails naming the variable. */
export function EnvBool(): PropertyDecorator {
  return applyDecorators(IsBoolean(), Transform(toBoolean));
}

export const booleanFromEnv = toBoolean;

/** Env class prototypes → the properties whose class default is for development only. */
const developmentOnly = new WeakMap<object, Set<string>>();

/**
 * Marks a variable whose built-in default protects something (a secret, a key that seals data) and is fit for
 * local runs only: with `NODE_ENV=production` the service refuses to start unless the variable is set, and set
 * to something else than that default (`createEnvValidator`).
 */
export function DevelopmentDefault(): PropertyDecorator {
  return (target, key) => {
    const names = developmentOnly.get(target) ?? new Set<string>();
    names.add(String(key));
    developmentOnly.set(target, names);
  };
}

/** Every `@DevelopmentDefault()` property of an env class, its base classes included. */
export function developmentDefaults(envClass: { prototype: object }): string[] {
  const names: string[] = [];
  for (
    let proto: object | null = envClass.prototype;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    names.push(...(developmentOnly.get(proto) ?? []));
  }
  return names;
}

/** Env class prototypes → the properties marked `@Secret()`. */
const secrets = new WeakMap<object, Set<string>>();

/**
 * Marks a variable whose value must never be printed (env validation reports what is wrong, not what was given).
 * Names with SECRET, TOKEN, PASSWORD, PRIVATE, KEY... are treated so without the mark (`isSecretVariable`).
 */
export function Secret(): PropertyDecorator {
  return (target, key) => {
    const names = secrets.get(target) ?? new Set<string>();
    names.add(String(key));
    secrets.set(target, names);
  };
}

/** Every `@Secret()` property of an env class, its base classes included. */
export function secretVariables(envClass: { prototype: object }): string[] {
  const names: string[] = [];
  for (
    let proto: object | null = envClass.prototype;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    names.push(...(secrets.get(proto) ?? []));
  }
  return names;
}
