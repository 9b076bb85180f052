import { PlatformErrorCode } from '@acme/platform-errors';

/**
 * Routes whose spec names their own invalid-body code (docs/decisions.md, "route-level body codes"): a 400
 * the platform raises for their body (not JSON, a top-level primitive, the wrong shape) answers that code
 * instead of the app-wide `request/invalid-json` / `request/invalid-body`. Paths are matched without the query.
 */
export const ROUTE_BODY_CODES: ReadonlyArray<{ methods: readonly string[]; path: RegExp; code: string }> = [
  { methods: ['POST'], path: /^\/api\/v6\/[^/]+\/api\/v7\/events\/?$/, code: 'event/invalid-body' },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/v6\/[^/]+\/api\/v7\/events\/[^/]+\/rsvp\/?$/,
    code: 'event/invalid-body',
  },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/v6\/[^/]+\/api\/v7\/push-notifications\/devices\/?$/,
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
 * The route's own code for a platform body failure, or undefined (the app-wide table answers). A refused path
 * parameter or query (`details.location`) is not the body and keeps `request/invalid-body`.
 */
export function routeBodyCode(error: {
  status: number;
  code: string;
  method?: string;
  path?: string;
  details?: Record<string, unknown>;
}): string | undefined {
  if (error.status !== 400 || !BODY_FAILURES.has(error.code) || !error.path || !error.method) return undefined;
  const location = error.details?.['location'];
  if (location !== undefined && location !== 'body') return undefined;
  const method = error.method.toUpperCase();
  return ROUTE_BODY_CODES.find((route) => route.methods.includes(method) && route.path.test(error.path ?? ''))?.code;
}
