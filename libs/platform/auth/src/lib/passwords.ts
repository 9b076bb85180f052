import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { AppError } from '@acme/platform-errors';

/**
 * Human passwords: scrypt (memory-hard, in node:crypto) with a per-password salt.
 * N=2^15, r=8, p=1 (32 MiB of memory per hash). The parameters are stored with each hash,
 * so they can be raised later without invalidating existing hashes.
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

/**
 * Hashes run on libuv's thread pool (4 threads), never on the event loop; but four ~120 ms hashes at once on
 * a 2-core machine leave the event loop a fraction of a core, and hold every pool thread (files, DNS). So at
 * most cores - 1 hashes (at least one) run at once and the others wait in order, leaving a core to the event
 * loop (docs/benchmarks/community-api.md, sign-in: other routes' p99 while sign-ins saturate).
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);

/** Default bound of the wait queue: about 4 s of hashing per slot at ~120 ms a hash. */
export const DEFAULT_PASSWORD_HASH_MAX_QUEUED = 32;

export enum PasswordErrorCode {
  HASHING_BUSY = 'PASSWORD_HASHING_BUSY',
}

/**
 * Sign-up, sign-in: a hash that would have to queue behind `maxQueued` others is refused at once (503 with
 * Retry-After) rather than waiting without bound (docs/decisions.md#client-addresses-and-the-operator-surface).
 */
export class PasswordHashingBusyError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      PasswordErrorCode.HASHING_BUSY,
      'unavailable',
      'The service is busy; retry after the number of seconds in Retry-After.',
      { retryAfterSeconds },
    );
    this.name = 'PasswordHashingBusyError';
  }
}

let maxQueued = DEFAULT_PASSWORD_HASH_MAX_QUEUED;
let running = 0;
const waiting: Array<() => void> = [];
/** Moving mean of one hash's duration, for Retry-After (seeded with the measured ~120 ms). */
let meanHashMs = 120;

/** Set once by the app from its env (libs read no env); the gate is process-wide, as the thread pool is. */
export function configurePasswordHashing(options: { maxQueued: number }): void {
  maxQueued = options.maxQueued;
}

/** What a caller waiting now would wait for, rounded up to whole seconds (at least 1). */
function retryAfterSeconds(): number {
  return Math.max(1, Math.ceil(((waiting.length + 1) * meanHashMs) / PASSWORD_HASH_CONCURRENCY / 1000));
}

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_HASH_CONCURRENCY) {
    if (waiting.length >= maxQueued) throw new PasswordHashingBusyError(retryAfterSeconds());
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  const started = performance.now();
  try {
    return await work();
  } finally {
    meanHashMs = meanHashMs * 0.9 + (performance.now() - started) * 0.1;
    // The slot passes straight to the next waiter (running unchanged), or is freed.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return gated(
    () =>
      new Promise((resolve, reject) =>
        scrypt(
          password.normalize('NFKC'),
          salt,
          KEY_LENGTH,
          { ...params, maxmem: 128 * params.N * params.r * 2 },
          (error, key) => (error ? reject(error) : resolve(key)),
        ),
      ),
  );
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
