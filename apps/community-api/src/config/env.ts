import { IsDefined, IsEmail, IsIn, IsOptional, IsString, IsUrl, MinLength, ValidateIf } from 'class-validator';
import { DEFAULT_PASSWORD_HASH_MAX_QUEUED } from '@acme/platform-auth';
import { BaseEnv, DevelopmentDefault, EnvBool, EnvInt } from '@acme/platform-config';

export const DEV_AUTH_SECRET = 'dev-only-community-auth-secret-change-me';

/** The only place this app reads process.env (see `loadEnvSource`), besides src/tracing.ts (OTEL_*). */
export class CommunityEnv extends BaseEnv {
  override PORT = 3002;

  /** Keys for access tokens and verification-code HMACs are derived from it; shared by every instance. */
  @IsString()
  @MinLength(32)
  @DevelopmentDefault()
  COMMUNITY_AUTH_SECRET = DEV_AUTH_SECRET;

  /**
   * Mailed links are built from it, never from a request's Host header; required in production. A development
   * run without it links to http://localhost:PORT (docs/community-api.md#email-verification).
   */
  @ValidateIf((env: CommunityEnv) => env.NODE_ENV === 'production' || env.PUBLIC_URL !== undefined)
  @IsDefined({ message: 'PUBLIC_URL must be set when NODE_ENV=production (mailed links are built from it)' })
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  override PUBLIC_URL?: string = undefined;

  @EnvInt({ min: 60 })
  ACCESS_TOKEN_TTL_SECONDS = 1800;

  @EnvInt({ min: 60 })
  REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

  /** SMTP transport for mail (e.g. smtp://user:pass@host:587); without it mail goes to the project outbox. */
  @IsUrl({ protocols: ['smtp', 'smtps'], require_tld: false, require_protocol: true })
  @IsOptional()
  SMTP_URL?: string;

  @IsEmail({ require_tld: false })
  MAIL_FROM = 'no-reply@community.localhost';

  /** Verify-email attempts allowed per project and client address. */
  @EnvInt({ min: 1 })
  VERIFICATION_ATTEMPTS_PER_MINUTE = 10;

  @EnvInt({ min: 1 })
  VERIFICATION_ATTEMPTS_PER_HOUR = 100;

  /** Verify-email attempts allowed per project per hour from all addresses together (guessing short codes). */
  @EnvInt({ min: 1 })
  VERIFICATION_ATTEMPTS_PER_PROJECT_PER_HOUR = 1000;

  /** Sign-in attempts allowed per project and client address per minute. */
  @EnvInt({ min: 1 })
  SIGN_IN_ATTEMPTS_PER_MINUTE = 30;

  /** Sign-ups allowed per project and client address per minute and per hour (apps/community-api/README.md, Auth rules). */
  @EnvInt({ min: 1 })
  SIGN_UPS_PER_ADDRESS_PER_MINUTE = 5;

  @EnvInt({ min: 1 })
  SIGN_UPS_PER_ADDRESS_PER_HOUR = 20;

  /**
   * Password hashes (sign-up, sign-in) allowed to wait for the process-wide hashing gate; one more answers 503
   * with Retry-After at once (README, Auth rules).
   */
  @EnvInt({ min: 0, max: 10_000 })
  PASSWORD_HASH_MAX_QUEUED = DEFAULT_PASSWORD_HASH_MAX_QUEUED;

  /** VAPID key pair for web push (URL-safe base64); generated once and kept in Postgres when unset. */
  @IsString()
  @IsOptional()
  VAPID_PUBLIC_KEY?: string;

  @IsString()
  @IsOptional()
  VAPID_PRIVATE_KEY?: string;

  @IsString()
  VAPID_SUBJECT = 'mailto:push@community.localhost';

  /** Allow `http:` push endpoints (local push services in tests); browsers only ever give https. */
  @EnvBool()
  PUSH_ALLOW_INSECURE_ENDPOINTS = false;

  /** Allow push endpoints on loopback, private or link-local addresses (a push service on the local network). */
  @EnvBool()
  PUSH_ALLOW_PRIVATE_ENDPOINTS = false;

  @EnvInt({ min: 1, max: 60000 })
  PUSH_TIMEOUT_MS = 10000;

  // --- Events: image storage and limits ---

  /** `local` (files under STORAGE_DIR, served at /files) or `s3` (any S3-compatible store). */
  @IsIn(['local', 's3'])
  STORAGE_DRIVER: 'local' | 's3' = 'local';

  @IsString()
  STORAGE_DIR = 'data/community-files';

  /** Where multipart uploads are staged while a request is processed (default: the OS temp dir). */
  @IsString()
  @IsOptional()
  UPLOAD_TMP_DIR?: string;

  /** Decompression-bomb guard: largest accepted source image, in pixels. */
  @EnvInt({ min: 1 })
  IMAGE_MAX_PIXELS = 100_000_000;

  /** Output pixels one event creation may ask for, over all renditions of all its images (README, "Images"). */
  @EnvInt({ min: 1 })
  IMAGE_MAX_REQUEST_PIXELS = 300_000_000;

  /** Image jobs (decodes, renditions) one instance runs at once, over all requests; at most libuv's pool (4). */
  @EnvInt({ min: 1, max: 64 })
  IMAGE_CONCURRENCY = 4;

  /** How often each instance deletes the files of event creations that died before committing (0 = never). */
  @EnvInt({ min: 0, max: 86_400 })
  EVENTS_UPLOAD_SWEEP_INTERVAL_SECONDS = 300;

  /** Age after which such a journal row is abandoned (longer than any upload request). */
  @EnvInt({ min: 0, max: 604_800 })
  EVENTS_UPLOAD_SWEEP_GRACE_SECONDS = 3600;

  @ValidateIf((env: CommunityEnv) => env.STORAGE_DRIVER === 's3')
  @IsString()
  @MinLength(1)
  S3_BUCKET?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @IsOptional()
  S3_ENDPOINT?: string;

  @EnvBool()
  S3_FORCE_PATH_STYLE = false;

  @IsString()
  @IsOptional()
  S3_ACCESS_KEY_ID?: string;

  @IsString()
  @IsOptional()
  S3_SECRET_ACCESS_KEY?: string;

  @IsString()
  @IsOptional()
  S3_KEY_PREFIX?: string;

  /** Public base URL of the bucket; without it images are served through this app's /files route. */
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @IsOptional()
  S3_PUBLIC_URL?: string;
}

/** The origin mailed links point at: PUBLIC_URL, or in development this instance on localhost (never `Host`). */
export const linkBaseUrl = (env: CommunityEnv): string =>
  env.PUBLIC_URL?.replace(/\/$/, '') ?? `http://localhost:${env.PORT}`;

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
