import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUrl, MinLength, ValidateBy } from 'class-validator';
import { BaseEnv, DevelopmentDefault, EnvInt } from '@acme/platform-config';

/** The only place this app reads process.env (see `loadEnvSource`), besides src/tracing.ts (OTEL_*). */
export class ManagementEnv extends BaseEnv {
  override PORT = 3001;

  /** RSA private key (PEM, `\n` escapes accepted); unset: one key is generated once and kept in Postgres. */
  @Transform(({ value }) => (typeof value === 'string' ? value.replace(/\\n/g, '\n') : value))
  @IsString()
  @IsOptional()
  MANAGEMENT_SIGNING_KEY?: string;

  @EnvInt({ min: 1, max: 2592000 })
  MANAGEMENT_TOKEN_TTL_SECONDS = 86400;

  /**
   * Auth0's tenant "Default Audience": the audience of a token request that names none (Swagger UI's client
   * credentials flow sends no `audience`). Unset: `audience` is required, as Auth0 answers without the setting.
   */
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'MANAGEMENT_DEFAULT_AUDIENCE must be a URL' })
  @IsOptional()
  MANAGEMENT_DEFAULT_AUDIENCE?: string;

  @IsString()
  @MinLength(1)
  @IsOptional()
  MANAGEMENT_BOOTSTRAP_CLIENT_ID?: string;

  /** At least 32 characters with NODE_ENV=production (guessing is also limited: docs/security.md, API2). */
  @IsString()
  @MinLength(16, { message: 'MANAGEMENT_BOOTSTRAP_CLIENT_SECRET must be at least 16 characters' })
  @ProductionMinLength(32)
  @IsOptional()
  MANAGEMENT_BOOTSTRAP_CLIENT_SECRET?: string;

  /** HMAC key for client-secret digests, and (derived) the key sealing the signing key at rest. */
  @IsString()
  @MinLength(16, { message: 'MANAGEMENT_CLIENT_SECRET_KEY must be at least 16 characters' })
  @DevelopmentDefault()
  MANAGEMENT_CLIENT_SECRET_KEY = 'local-development-client-secret-key';

  /** The management API's own limit, per client, shared by all instances. */
  @EnvInt({ min: 1 })
  MANAGEMENT_RATE_LIMIT_PER_SECOND = 50;

  /** Burst size of that bucket; defaults to the per-second rate. */
  @EnvInt({ min: 1, optional: true })
  MANAGEMENT_RATE_LIMIT_BURST?: number;

  /** Rate-limit policy enforcement on /oauth/token: longest wait for the limiter (Redis) before failing open. */
  @EnvInt({ min: 1, max: 10000 })
  MANAGEMENT_POLICY_LIMITER_TIMEOUT_MS = 100;

  /** Seconds a cached client keeps serving /oauth/token past its reload age while reloading fails (0: never). */
  @EnvInt({ min: 0, max: 86400 })
  MANAGEMENT_CREDENTIAL_STALE_MAX_S = 300;

  /** Backstop reload of the cached policies, seconds (0 = only on change notifications). */
  @EnvInt({ min: 0 })
  MANAGEMENT_POLICY_CACHE_RELOAD_SECONDS = 30;

  /** Failed client authentications on /oauth/token per client id, per window; then 429 until it ends. */
  @EnvInt({ min: 1 })
  MANAGEMENT_FAILED_AUTH_PER_CLIENT = 20;

  /** Failed client authentications on /oauth/token per client address (any client id), per window. */
  @EnvInt({ min: 1 })
  MANAGEMENT_FAILED_AUTH_PER_ADDRESS = 50;

  @EnvInt({ min: 1, max: 86400 })
  MANAGEMENT_FAILED_AUTH_WINDOW_SECONDS = 300;
}

/** A minimum length that applies with NODE_ENV=production only; the message names the variable, never its value. */
function ProductionMinLength(min: number): PropertyDecorator {
  return ValidateBy({
    name: 'productionMinLength',
    constraints: [min],
    validator: {
      validate: (value: unknown, args) =>
        (args?.object as { NODE_ENV?: string }).NODE_ENV !== 'production' ||
        (typeof value === 'string' && value.length >= min),
      defaultMessage: (args) => `${args?.property} must be at least ${min} characters when NODE_ENV=production`,
    },
  });
}

/** `{PUBLIC_URL}` without a trailing slash; issuer and audience derive from it. */
export function publicBaseUrl(env: ManagementEnv): string {
  return (env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT ?? 3001}`).replace(/\/+$/, '');
}

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
