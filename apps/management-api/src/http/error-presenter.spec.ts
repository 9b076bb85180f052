import { PresentableError } from '@acme/platform-errors';
import { presentManagementError } from './error-presenter';

const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'm', requestId: 'r' };

describe('presentManagementError', () => {
  it.each([
    [
      { ...base, code: 'VALIDATION_FAILED', details: { location: 'query' } },
      400,
      'Bad Request',
      'invalid_query_string',
    ],
    [{ ...base, code: 'VALIDATION_FAILED', details: { location: 'body' } }, 400, 'Bad Request', 'invalid_body'],
    [{ ...base, code: 'VALIDATION_FAILED', details: { location: 'param' } }, 400, 'Bad Request', 'invalid_uri'],
    [{ ...base, status: 401, kind: 'unauthorized', code: 'INVALID_TOKEN' }, 401, 'Unauthorized', 'invalid_token'],
    [{ ...base, status: 403, kind: 'forbidden', code: 'INSUFFICIENT_SCOPE' }, 403, 'Forbidden', 'insufficient_scope'],
    [{ ...base, status: 404, kind: 'not_found', code: 'ROUTE_NOT_FOUND' }, 404, 'Not Found', 'not_found'],
    [
      { ...base, status: 409, kind: 'conflict', code: 'RATE_LIMIT_POLICY_CONFLICT' },
      409,
      'Conflict',
      'rate_limit_policy_conflict',
    ],
    [
      { ...base, status: 429, kind: 'rate_limited', code: 'TOO_MANY_REQUESTS' },
      429,
      'Too Many Requests',
      'too_many_requests',
    ],
    [{ ...base, status: 500, kind: 'internal', code: 'INTERNAL' }, 500, 'Internal Server Error', 'internal_error'],
  ] as const)('renders %o in the Auth0 shape', (error, status, reason, errorCode) => {
    const presented = presentManagementError(error as PresentableError);
    expect(presented.status).toBe(status);
    expect(presented.body).toEqual({
      statusCode: status,
      error: reason,
      message: status >= 500 ? 'Internal Server Error' : 'm',
      errorCode,
    });
  });

  it('renders OAuth failures as {error, error_description} with no-store', () => {
    const presented = presentManagementError({
      ...base,
      status: 401,
      kind: 'unauthorized',
      code: 'OAUTH_INVALID_CLIENT',
      message: 'Unauthorized',
      details: { oauthError: 'invalid_client' },
    });
    expect(presented).toEqual({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Unauthorized' },
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    });
  });

  it('renders a database outage as 503 temporarily_unavailable, in the OAuth shape on /oauth/token', () => {
    const outage = {
      ...base,
      status: 503,
      kind: 'unavailable',
      code: 'DATABASE_UNAVAILABLE',
      message: 'retry later',
    } as const;
    expect(presentManagementError({ ...outage, path: '/api/v2/clients' }).body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'retry later',
      errorCode: 'temporarily_unavailable',
    });
    expect(presentManagementError({ ...outage, path: '/oauth/token' })).toMatchObject({
      status: 503,
      body: { error: 'temporarily_unavailable', error_description: 'retry later' },
    });
  });

  it('renders refused input and bugs on /oauth/token in the OAuth shape', () => {
    expect(presentManagementError({ ...base, code: 'VALIDATION_FAILED', path: '/oauth/token' }).body).toEqual({
      error: 'invalid_request',
      error_description: 'm',
    });
    expect(
      presentManagementError({ ...base, status: 500, kind: 'internal', code: 'INTERNAL', path: '/oauth/token' }).body,
    ).toEqual({ error: 'server_error', error_description: 'Internal Server Error' });
  });

  it('renders an undecodable cursor as invalid_query_string', () => {
    expect(presentManagementError({ ...base, code: 'INVALID_CURSOR' }).body).toMatchObject({
      errorCode: 'invalid_query_string',
    });
  });
});
