import type { LoggerService } from '@nestjs/common';
import { routineStartLogsAtDebug } from './routine-start-logs';

function recordingLogger() {
  const calls: Array<[string, unknown[]]> = [];
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void calls.push([level, args]);
  const logger: LoggerService = {
    log: record('log'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
    verbose: record('verbose'),
    fatal: record('fatal'),
  };
  return { logger, calls };
}

describe('routineStartLogsAtDebug', () => {
  it("moves Nest's route and module lines to debug and leaves every other line at its level", () => {
    const { logger, calls } = recordingLogger();
    const quiet = routineStartLogsAtDebug(logger);
    quiet.log('Mapped {/health, GET} route', 'RouterExplorer');
    quiet.log('HealthController {/health}:', 'RoutesResolver');
    quiet.log('AppModule dependencies initialized', 'InstanceLoader');
    quiet.log('Nest application successfully started', 'NestApplication');
    quiet.warn('slow', 'Anything');
    quiet.error('boom', 'trace', 'Anything');
    expect(calls).toEqual([
      ['debug', ['Mapped {/health, GET} route', 'RouterExplorer']],
      ['debug', ['HealthController {/health}:', 'RoutesResolver']],
      ['debug', ['AppModule dependencies initialized', 'InstanceLoader']],
      ['log', ['Nest application successfully started', 'NestApplication']],
      ['warn', ['slow', 'Anything']],
      ['error', ['boom', 'trace', 'Anything']],
    ]);
  });
});
