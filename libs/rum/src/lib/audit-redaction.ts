import { toStorableText } from './text';

export const REDACTED = '[REDACTED]';

/** Names whose values are credentials. `key` alone is a filter's field path, not a secret. */
const SECRET_NAME =
  /(app_?key|api_?key|token|secret|password|passwd|authorization|cookie|signature|credential|private_?key)/i;
const JWT = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;
const OUR_SECRETS = /^rum_(ak|ct)_/;

/** A long run of token characters mixing letters and digits reads as a generated secret. */
function looksSecret(value: string): boolean {
  if (OUR_SECRETS.test(value) || JWT.test(value)) return true;
  if (value.length < 32 || value.length > 512 || !/^[A-Za-z0-9_\-+/=.]+$/.test(value)) return false;
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9]/.test(value);
}

/**
 * Copy of a request part fit for the audit log: secret-named fields and secret-looking strings are replaced,
 * NUL characters (which Postgres text refuses) are dropped, and depth and size are bounded.
 */
export function redactForAudit(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return looksSecret(value) ? REDACTED : toStorableText(value.slice(0, 2048));
  if (value === null || typeof value !== 'object')
    return typeof value === 'number' || typeof value === 'boolean' ? value : null;
  if (depth >= 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redactForAudit(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .slice(0, 50)
      .map(([name, inner]) => [
        toStorableText(name),
        SECRET_NAME.test(name) ? REDACTED : redactForAudit(inner, depth + 1),
      ]),
  );
}
