import { randomBytes, randomInt } from 'node:crypto';

export const TOKEN_FORMATS = ['hex', 'numeric', 'alpha', 'alphanumeric'] as const;
export type TokenFormat = (typeof TOKEN_FORMATS)[number];
export const VERIFICATION_MODES = ['code', 'link'] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

/** What a send asks for (the service sends, verification-mail.ts words the message). */
export interface SendVerificationOptions {
  mode: VerificationMode;
  /** Code mode only; the server lengthens short codes (SHORTEST_CODE) and links are always hex. */
  tokenFormat: TokenFormat;
  tokenLength: number;
  /** Kept only when its origin is on the project's allow-list (redirect-origins.ts). */
  redirectUrl?: string;
  /** Absolute URL of the link endpoint for this project (link mode). */
  linkEndpoint: string;
}

/** What a client may ask for (the wire contract); the server only ever lengthens a code (SHORTEST_CODE). */
export const TOKEN_LENGTH = { min: 4, max: 12, default: 6 } as const;
/** Lifetime of every verification token, used or not (docs/community-api.md#email-verification). */
export const VERIFICATION_TOKEN_TTL_MS = 5 * 60 * 1000;
/** The longest token verify looks up, in code points: longer or empty ones were never issued (docs/community-api.md). */
export const MAX_PRESENTED_TOKEN_CHARS = 256;

type ShortFormat = Exclude<TokenFormat, 'hex'>;

const ALPHABETS: Record<ShortFormat, string> = {
  numeric: '0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
};

/**
 * The server's floor per alphabet, about 40 bits or more whatever `tokenLength` asks for: 12 digits (39.9 bits),
 * 8 letters (45.6), 8 letters and digits (47.6). Why a floor rather than 6 digits with an attempt cap:
 * docs/community-api.md#email-verification.
 */
export const SHORTEST_CODE: Readonly<Record<ShortFormat, number>> = { numeric: 12, alpha: 8, alphanumeric: 8 };

/** Random characters after the user id in a hex token (128 bits). */
const HEX_SECRET_BYTES = 16;
const HEX_TOKEN = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})[0-9a-f]{32}$/;

/**
 * A token for `userId`. Hex tokens (the default, and every link) are 64 characters: the user's id without
 * dashes, then 32 random hex characters, so the token alone names whose code it is. The other formats are
 * `max(length, SHORTEST_CODE)` random characters of their alphabet, checked with the user the request names.
 */
export function generateVerificationToken(format: TokenFormat, length: number, userId: string): string {
  if (format === 'hex')
    return `${userId.replace(/-/g, '').toLowerCase()}${randomBytes(HEX_SECRET_BYTES).toString('hex')}`;
  const alphabet = ALPHABETS[format];
  let token = '';
  for (let i = Math.max(length, SHORTEST_CODE[format]); i > 0; i -= 1) token += alphabet[randomInt(alphabet.length)];
  return token;
}

/** The user id a hex token carries, or undefined for any other string. */
export function userIdInToken(token: string): string | undefined {
  const parts = HEX_TOKEN.exec(token);
  return parts ? parts.slice(1, 6).join('-') : undefined;
}
