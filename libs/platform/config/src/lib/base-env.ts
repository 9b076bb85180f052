import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const toBoolean = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : value === true || value === 'true' || value === '1' ? true : value === false || value === 'false' || value === '0' ? false : value;

/** Variables every service reads (ARCHITECTURE.md, operator contract). Apps extend it with their own. */
export class BaseEnv {
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  @IsOptional()
  PORT?: number;

  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_protocol: true })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix for every Redis key and queue of this deployment (tests give each file its own). */
  @IsString()
  REDIS_PREFIX = 'acme';

  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @IsOptional()
  PUBLIC_URL?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @IsString()
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  @IsOptional()
  ADMIN_TOKEN?: string;

  @Transform(toBoolean)
  @IsBoolean()
  MIGRATIONS_RUN = true;
}

export const booleanFromEnv = toBoolean;
