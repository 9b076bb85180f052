import type { LoggerService } from '@nestjs/common';

/** Nest's per-module and per-route start-up lines: useful when debugging, noise in every start (`LOG_LEVEL=debug`). */
const ROUTINE_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** The app's logger, with Nest's routine start-up lines moved from info to debug. */
export function routineStartLogsAtDebug(logger: LoggerService): LoggerService {
  return {
    log: (message: unknown, ...rest: unknown[]) => {
      const context = rest.at(-1);
      if (typeof context === 'string' && ROUTINE_CONTEXTS.has(context)) return logger.debug?.(message, ...rest);
      return logger.log(message, ...rest);
    },
    error: (message: unknown, ...rest: unknown[]) => logger.error(message, ...rest),
    warn: (message: unknown, ...rest: unknown[]) => logger.warn(message, ...rest),
    debug: (message: unknown, ...rest: unknown[]) => logger.debug?.(message, ...rest),
    verbose: (message: unknown, ...rest: unknown[]) => logger.verbose?.(message, ...rest),
    fatal: (message: unknown, ...rest: unknown[]) => logger.fatal?.(message, ...rest),
  };
}
