import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { developmentDefaults } from './env-decorators';

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

function describe(error: ValidationError, raw: Record<string, unknown>): string {
  const reasons = Object.values(error.constraints ?? {}).join('; ');
  const given = raw[error.property];
  return `${error.property}: ${reasons} (got ${given === undefined || given === '' ? 'nothing' : JSON.stringify(String(given))})`;
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

/**
 * Builds the `validate` function for `ConfigModule.forRoot`: coerces strings, applies class defaults for
 * missing or empty variables, and fails naming every bad variable.
 */
export function createEnvValidator<T extends object>(envClass: ClassConstructor<T>) {
  return (raw: Record<string, unknown>): T => {
    const present = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
    const env = plainToInstance(envClass, present, { exposeDefaultValues: true });
    const errors = validateSync(env as object, { whitelist: false, skipMissingProperties: false });
    const problems = [...errors.map((error) => describe(error, raw)), ...productionProblems(envClass, present)];
    if (problems.length > 0) throw new InvalidEnvironmentError(problems);
    return env;
  };
}
