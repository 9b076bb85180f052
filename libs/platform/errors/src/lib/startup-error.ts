/**
 * A start-up failure that names the setting to check (DATABASE_URL, PORT, ...): the runner writes it as the one
 * fatal JSON line of a service that cannot start (docs/operations.md, "Start-up failures").
 */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly setting: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StartupError';
  }
}
