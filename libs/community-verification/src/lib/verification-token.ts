import { randomBytes, randomInt } from 'node:crypto';

export const TOKEN_FORMATS = ['hex', 'numeric', 'alpha', 'alphanumeric'] as const;
export type TokenFormat = (typeof TOKEN_FORMATS)[number];
export const VERIFICATION_MODES = ['code', 'link'] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

export const TOKEN_LENGTH = { min: 4, max: 12, default: 6 } as const;
/** Lifetime of every verification token, used or not (docs/community-api.md#email-verification). */
export const VERIFICATION_TOKEN_TTL_MS = 5 * 60 * 1000;

const ALPHABETS: Record<Exclude<TokenFormat, 'hex'>, string> = {
  numeric: '0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
};

/** A uniformly random token; hex is always 64 characters (32 bytes), the others `length` characters. */
export function generateVerificationToken(format: TokenFormat, length: number = TOKEN_LENGTH.default): string {
  if (format === 'hex') return randomBytes(32).toString('hex');
  const alphabet = ALPHABETS[format];
  let token = '';
  for (let i = 0; i < length; i += 1) token += alphabet[randomInt(alphabet.length)];
  return token;
}
