import type { LoggerService, LogLevel } from '@nestjs/common';
import { serializeError } from '@acme/platform-observability';

const PINO_LEVEL: Record<LogLevel, number> = { verbose: 10, debug: 20, log: 30, warn: 40, error: 50, fatal: 60 };

/** One JSON line on stdout, shaped like pino's (level, time, service, msg), for the process's framing lines. */
export function writeJsonLine(service: string, level: number, msg: string, extra: object = {}): void {
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), service, msg, ...extra })}\n`);
}

/**
 * Nest's logger until pino attaches (configureApp), so start-up speaks JSON from its first line rather than
 * Nest's coloured text. Nest's own report of a failed start (context `ExceptionHandler`, a raw stack) is left
 * out: runService writes the one fatal line naming the cause and the setting to check (docs/operations.md).
 */
export class StartupLogger implements LoggerService {
  constructor(
    private readonly service: string,
    private readonly minimum = 30,
  ) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (PINO_LEVEL[level] < this.minimum) return;
    // Nest passes the context last.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (context === 'ExceptionHandler') return;
    if (message instanceof Error) {
      writeJsonLine(this.service, PINO_LEVEL[level], message.message, { context, err: serializeError(message) });
      return;
    }
    if (message !== null && typeof message === 'object') {
      const { err, msg, ...fields } = message as { err?: unknown; msg?: unknown };
      const extra = { context, ...fields, ...(err === undefined ? {} : { err: serializeError(err) }) };
      writeJsonLine(this.service, PINO_LEVEL[level], String(msg ?? rest[0] ?? ''), extra);
      return;
    }
    writeJsonLine(this.service, PINO_LEVEL[level], String(message), { context });
  }
}
