import { readFileSync } from 'node:fs';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import { developmentDefaults, secretVariables } from './env-decorators';

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/**
 * Variables whose value is never printed, whatever is wrong with it: marked `@Secret()`, or named like a secret
 * (a new variable is covered before anyone remembers to mark it). docs/decisions.md#client-addresses-and-the-operator-surface.
 */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|PASSPHRASE|PRIVATE|CREDENTIAL|(^|_)KEY(_|$)|KEY_ID$/;

export function isSecretVariable(envClass: { prototype: object }, name: string): boolean {
  return SECRET_NAME.test(name) || secretVariables(envClass).includes(name);
}

/**
 * URLs' credentials (postgres://user:password@host) hidden, in every URL of a comma list, even in values too
 * broken to parse: everything between `://` and the last `@` goes.
 */
export function withoutUrlPassword(value: string): string {
  return value
    .split(',')
    .map((part) => {
      const start = part.indexOf('://');
      if (start < 0) return part;
      // The last `@` anywhere: a password may hold `/`; an `@` in a path only hides more than needed.
      const at = part.lastIndexOf('@');
      return at > start ? `${part.slice(0, start + 3)}***${part.slice(at)}` : part;
    })
    .join(',');
}

/** What was given, for the message: nothing of a secret; a URL without its password; anything else as is. */
function shownValue(envClass: { prototype: object }, name: string, given: unknown): string {
  if (given === undefined || given === '') return ' (got nothing)';
  if (isSecretVariable(envClass, name)) return ' (a secret: its value is not shown)';
  return ` (got ${JSON.stringify(withoutUrlPassword(String(given)))})`;
}

function describe(envClass: { prototype: object }, error: ValidationError, raw: Record<string, unknown>): string {
  // A value read from a <NAME>_FILE is a secret: named by its file, never quoted.
  if (raw[`${error.property}_FILE`] !== undefined && raw[error.property] === undefined)
    return `${error.property}: ${Object.values(error.constraints ?? {}).join('; ')} (got the content of ${error.property}_FILE)`;
  const given = raw[error.property];
  let reasons = Object.values(error.constraints ?? {}).join('; ');
  // A constraint's own message may quote the value (`$value`): never a secret's, never a URL's password.
  if (typeof given === 'string' && given !== '') {
    const hidden = isSecretVariable(envClass, error.property)
      ? given
      : given === withoutUrlPassword(given)
        ? ''
        : given;
    if (hidden) reasons = reasons.split(hidden).join('[hidden]');
  }
  return `${error.property}: ${reasons}${shownValue(envClass, error.property, given)}`;
}

/** In production, a `@DevelopmentDefault()` variable must be given, and not as its development value. */
function productionProblems<T extends object>(
  envClass: ClassConstructor<T>,
  present: Record<string, unknown>,
): string[] {
  if (present['NODE_ENV'] !== 'production') return [];
  const defaults = new envClass() as Record<string, unknown>;
  return developmentDefaults(envClass)
    .filter((name) => present[name] === undefined || present[name] === defaults[name])
    .map(
      (name) =>
        `${name}: must be set to a value of its own when NODE_ENV=production (the built-in default is for development only)`,
    );
}

/** The variables an env class declares (its validated properties, base classes included). */
export function declaredVariables(envClass: ClassConstructor<object>): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(envClass, '', true, false)
      .map((metadata) => metadata.propertyName),
  );
}

/**
 * `<NAME>_FILE=/path` gives NAME the content of that file (a secret mounted by an orchestrator), without one trailing
 * line break. Both set is refused, as is an unreadable file; the problem names the variable, never the content
 * (docs/deploying.md#secrets-as-files). A variable the env class declares under a `_FILE` name (a CA bundle's path)
 * is its own variable.
 */
export function resolveFileVariables(
  present: Record<string, unknown>,
  declared: Set<string> = new Set(),
): {
  resolved: Record<string, unknown>;
  problems: string[];
} {
  const resolved = { ...present };
  const problems: string[] = [];
  for (const [key, path] of Object.entries(present)) {
    if (!key.endsWith('_FILE') || key.length <= 5 || declared.has(key)) continue;
    const name = key.slice(0, -5);
    delete resolved[key];
    if (present[name] !== undefined) {
      problems.push(`${name}: give either ${name} or ${key}, not both`);
      continue;
    }
    try {
      resolved[name] = readFileSync(String(path), 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${key}: cannot read ${JSON.stringify(String(path))} (${(error as NodeJS.ErrnoException).code})`);
    }
  }
  return { resolved, problems };
}

/**
 * Builds the `validate` function for `ConfigModule.forRoot`: coerces strings, applies class defaults for
 * missing or empty variables, and fails naming every bad variable.
 */
export function createEnvValidator<T extends object>(envClass: ClassConstructor<T>) {
  const declared = declaredVariables(envClass);
  return (raw: Record<string, unknown>): T => {
    const given = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
    const { resolved: present, problems: fileProblems } = resolveFileVariables(given, declared);
    const env = plainToInstance(envClass, present, { exposeDefaultValues: true });
    const errors = validateSync(env as object, { whitelist: false, skipMissingProperties: false });
    const problems = [
      ...fileProblems,
      ...errors.map((error) => describe(envClass, error, raw)),
      ...productionProblems(envClass, present),
    ];
    if (problems.length > 0) throw new InvalidEnvironmentError(problems);
    return env;
  };
}
