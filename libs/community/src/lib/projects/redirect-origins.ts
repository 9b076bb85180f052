import { validationFailed } from '@acme/platform-errors';
import type { Project } from './project.entity';

/** How many origins one project may list; a few apps (web, staging, a mobile deep-link host) is the use. */
export const MAX_REDIRECT_ORIGINS = 20;

/**
 * The canonical origin (`https://app.example.com`, default port dropped, host lower-cased) when `value` is
 * exactly an http(s) origin, with no credentials, path, query or fragment; otherwise undefined.
 */
export function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  return url.origin;
}

/** The canonical, de-duplicated list, or a 400 naming the first value that is not an http(s) origin. */
export function normalizeRedirectOrigins(values: readonly string[]): string[] {
  const origins = values.map((value) => {
    const origin = parseOrigin(value);
    if (!origin)
      throw validationFailed([
        {
          property: 'redirectOrigins',
          constraints: [`redirectOrigins: ${JSON.stringify(value.slice(0, 100))} is not an http(s) origin`],
        },
      ]);
    return origin;
  });
  const unique = [...new Set(origins)];
  if (unique.length > MAX_REDIRECT_ORIGINS)
    throw validationFailed([
      { property: 'redirectOrigins', constraints: [`redirectOrigins: at most ${MAX_REDIRECT_ORIGINS} origins`] },
    ]);
  return unique;
}

/**
 * `url` when its origin is on the project's allow-list (docs/community-api.md#email-verification), else
 * undefined: verification links and their redirects lead only to the project's own apps.
 */
export function allowedRedirect(
  project: Pick<Project, 'redirectOrigins'>,
  url: string | undefined,
): string | undefined {
  if (!url) return undefined;
  let origin: string;
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) return undefined;
    origin = parsed.origin;
  } catch {
    return undefined;
  }
  return project.redirectOrigins.includes(origin) ? url : undefined;
}
