import { PresentableError } from '@acme/platform-errors';
import { presentMigrationError } from './error-presenter';

const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'm', requestId: 'r' };

describe('presentMigrationError', () => {
  it.each([
    ['validation', 400, 'INVALID_ARGUMENT', 'm'],
    ['unauthorized', 401, 'UNAUTHENTICATED', 'm'],
    ['forbidden', 403, 'PERMISSION_DENIED', 'm'],
    ['not_found', 404, 'NOT_FOUND', 'm'],
    ['conflict', 409, 'FAILED_PRECONDITION', 'm'],
    ['rate_limited', 429, 'RESOURCE_EXHAUSTED', 'm'],
    ['internal', 500, 'INTERNAL', 'Internal error'],
    ['unavailable', 503, 'UNAVAILABLE', 'm'],
  ] as const)('renders kind %s', (kind, status, name, message) => {
    expect(presentMigrationError({ ...base, kind })).toEqual({ status, body: { error: { message, status: name } } });
  });
});
