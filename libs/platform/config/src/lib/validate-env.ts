import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

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

/**
 * Builds the `validate` function for `ConfigModule.forRoot`: coerces strings, applies class defaults for
 * missing or empty variables, and fails naming every bad variable.
 */
export function createEnvValidator<T extends object>(envClass: ClassConstructor<T>) {
  return (raw: Record<string, unknown>): T => {
    const present = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
    const env = plainToInstance(envClass, present, { exposeDefaultValues: true });
    const errors = validateSync(env as object, { whitelist: false, skipMissingProperties: false });
    if (errors.length > 0) throw new InvalidEnvironmentError(errors.map((error) => describe(error, raw)));
    return env;
  };
}
