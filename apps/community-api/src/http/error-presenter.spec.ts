import { PresentableError } from '@acme/platform-errors';
import { presentCommunityError } from './error-presenter';

const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'm', requestId: 'r' };

describe('presentCommunityError', () => {
  it.each([
    [
      { ...base, code: 'VALIDATION_FAILED', details: { field: 'title' } },
      400,
      { error: 'm', code: 'request/invalid-body', field: 'title' },
    ],
    [
      { ...base, status: 401, kind: 'unauthorized', code: 'AUTH_UNAUTHORIZED' },
      401,
      { error: 'm', code: 'auth/unauthorized' },
    ],
    [
      { ...base, status: 404, kind: 'not_found', code: 'ROUTE_NOT_FOUND' },
      404,
      { error: 'm', code: 'route/not-found' },
    ],
    [{ ...base, status: 409, kind: 'conflict', code: 'EVENT_FULL' }, 409, { error: 'm', code: 'event/full' }],
    [
      { ...base, status: 413, kind: 'payload_too_large', code: 'EVENT_FILE_TOO_LARGE' },
      413,
      { code: 'event/file-too-large', message: 'm' },
    ],
    [
      { ...base, status: 422, kind: 'unprocessable', code: 'EVENT_INVALID_IMAGE' },
      422,
      { code: 'event/invalid-image', message: 'm' },
    ],
    [
      { ...base, status: 429, kind: 'rate_limited', code: 'AUTH_TOO_MANY_ATTEMPTS' },
      429,
      { error: 'm', code: 'auth/too-many-attempts' },
    ],
    [
      { ...base, status: 500, kind: 'internal', code: 'INTERNAL' },
      500,
      { error: 'Internal server error', code: 'server/internal-error' },
    ],
    [
      { ...base, status: 503, kind: 'unavailable', code: 'DATABASE_UNAVAILABLE' },
      503,
      { error: 'm', code: 'server/unavailable' },
    ],
    [
      { ...base, status: 404, kind: 'not_found', code: 'PROJECT_NOT_FOUND' },
      404,
      { error: 'm', code: 'project/not-found' },
    ],
    [{ ...base, status: 403, kind: 'forbidden', code: 'AUTH_FORBIDDEN' }, 403, { error: 'm', code: 'auth/forbidden' }],
    [
      { ...base, status: 400, kind: 'validation', code: 'VERIFICATION_INVALID_OR_EXPIRED' },
      400,
      { error: 'm', code: 'auth/invalid-or-expired-token' },
    ],
    [
      { ...base, status: 429, kind: 'rate_limited', code: 'VERIFICATION_TOO_MANY_ATTEMPTS' },
      429,
      { error: 'm', code: 'auth/too-many-attempts' },
    ],
    [
      { ...base, status: 401, kind: 'unauthorized', code: 'PUSH_DEVICE_UNAUTHORIZED' },
      401,
      { error: 'm', code: 'push-device/unauthorized' },
    ],
    [
      { ...base, status: 400, kind: 'validation', code: 'PUSH_DEVICE_INVALID_BODY', details: { field: 'platform' } },
      400,
      { error: 'm', code: 'push-device/invalid-body', field: 'platform' },
    ],
    [
      { ...base, status: 403, kind: 'forbidden', code: 'PUSH_BUNDLE_REQUIRED' },
      403,
      { error: 'm', code: 'database/tables-not-available' },
    ],
    [{ ...base, status: 405, kind: 'validation', code: 'HTTP_405' }, 405, { error: 'm', code: 'request/invalid-body' }],
  ] as const)('renders %o', (error, status, body) => {
    expect(presentCommunityError(error as PresentableError)).toEqual({ status, body });
  });

  it('passes no code through: a code of no table (even one shaped like a wire code) is an internal error', () => {
    for (const code of ['auth/unauthorized', 'SOMETHING']) {
      expect(presentCommunityError({ ...base, status: 403, kind: 'forbidden', code }).body).toMatchObject({
        code: 'server/internal-error',
      });
    }
  });
});
