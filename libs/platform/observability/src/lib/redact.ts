const SECRET_NAME = /(key|token|secret|password|passwd|code|authorization|cookie|signature)/i;
export const REDACTED = '[REDACTED]';

/** Replaces the values of secret-looking query parameters in a URL (e.g. `app_key`). */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of [...params.keys()]) if (SECRET_NAME.test(name)) params.set(name, REDACTED);
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

/** Deep copy with secret-looking keys redacted, for audit logs and structured log fields. */
export function redactObject(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactObject(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
      key,
      SECRET_NAME.test(key) ? REDACTED : redactObject(inner, depth + 1),
    ]),
  );
}
