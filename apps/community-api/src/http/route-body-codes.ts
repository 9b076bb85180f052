import { PlatformErrorCode } from '@acme/platform-errors';

/**
 * Routes whose spec names their own invalid-input code (docs/decisions.md, "route-level body codes"): a 400
 * the platform raises for their body (not JSON, a top-level primitive, the wrong shape) or, for `query`
 * entries, the route's query DTO raises (not the platform's text rule before it) answers that code instead of the app-wide
 * `request/invalid-json` / `request/invalid-body`. Paths are matched without the query.
 */
export const ROUTE_INPUT_CODES: ReadonlyArray<{
  methods: readonly string[];
  path: RegExp;
  location: 'body' | 'query';
  code: string;
}> = [
  { methods: ['POST'], path: /^\/api\/v6\/[^/]+\/api\/v7\/events\/?$/, location: 'body', code: 'event/invalid-body' },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/v6\/[^/]+\/api\/v7\/events\/[^/]+\/rsvp\/?$/,
    location: 'body',
    code: 'event/invalid-body',
  },
  {
    methods: ['GET'],
    path: /^\/api\/v6\/[^/]+\/api\/v7\/events(\/[^/]+\/rsvps)?\/?$/,
    location: 'query',
    code: 'event/invalid-query',
  },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/v6\/[^/]+\/api\/v7\/push-notifications\/devices\/?$/,
    location: 'body',
    code: 'push-device/invalid-body',
  },
];

/** The platform's 400s that are about the body a client sent. */
const BODY_FAILURES: ReadonlySet<string> = new Set([
  PlatformErrorCode.MALFORMED_BODY,
  PlatformErrorCode.MALFORMED_REQUEST,
  PlatformErrorCode.VALIDATION_FAILED,
  PlatformErrorCode.UNSUPPORTED_ENCODING,
  PlatformErrorCode.UNSUPPORTED_MEDIA_TYPE,
  PlatformErrorCode.REQUEST_ABORTED,
]);

/**
 * The route's own code for a platform body (or declared query) failure, or undefined (the app-wide table
 * answers). A refused path parameter or an undeclared query keeps `request/invalid-body`.
 */
export function routeInputCode(error: {
  status: number;
  code: string;
  method?: string;
  path?: string;
  details?: Record<string, unknown>;
}): string | undefined {
  if (error.status !== 400 || !BODY_FAILURES.has(error.code) || !error.path || !error.method) return undefined;
  const location = error.details?.['location'] ?? 'body';
  if (location === 'query' && error.details?.['dto'] === undefined) return undefined;
  const method = error.method.toUpperCase();
  return ROUTE_INPUT_CODES.find(
    (route) => route.location === location && route.methods.includes(method) && route.path.test(error.path ?? ''),
  )?.code;
}
