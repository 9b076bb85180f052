import { PresentableError } from '@acme/platform-errors';
import { MigrationError, MigrationErrorCode, MigrationErrors } from '@acme/document-migration';
import { PlatformErrorCode, presentMigrationError, WIRE_BY_CODE } from './error-presenter';

const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'm', requestId: 'r' };

describe('presentMigrationError', () => {
  it.each([
    ['validation', 400, 'INVALID_ARGUMENT', 'm'],
    ['unauthorized', 401, 'UNAUTHENTICATED', 'm'],
    ['forbidden', 404, 'NOT_FOUND', 'm'],
    ['not_found', 404, 'NOT_FOUND', 'm'],
    ['conflict', 409, 'FAILED_PRECONDITION', 'm'],
    ['rate_limited', 429, 'RESOURCE_EXHAUSTED', 'm'],
    ['internal', 500, 'INTERNAL', 'Internal error'],
    ['unavailable', 503, 'UNAVAILABLE', 'm'],
  ] as const)('renders kind %s', (kind, status, name, message) => {
    expect(presentMigrationError({ ...base, kind })).toEqual({ status, body: { error: { message, status: name } } });
  });
});

describe('presentMigrationError, code by code', () => {
  const byKind = (kind: PresentableError['kind']) => presentMigrationError({ ...base, code: 'UNDECLARED', kind });

  it.each(Object.values(MigrationErrorCode))('gives domain code %s the status its kind always had', (code) => {
    const error = new MigrationError(code, 'm');
    const presented = presentMigrationError({ ...base, code: error.code, kind: error.kind, message: error.message });
    expect(presented.status).toBe(byKind(error.kind).status);
    expect((presented.body as { error: { status: string } }).error.status).toBe(
      (byKind(error.kind).body as { error: { status: string } }).error.status,
    );
  });

  it.each([
    [PlatformErrorCode.VALIDATION_FAILED, 'validation'],
    [PlatformErrorCode.ROUTE_NOT_FOUND, 'not_found'],
    [PlatformErrorCode.MALFORMED_BODY, 'validation'],
    [PlatformErrorCode.MALFORMED_REQUEST, 'validation'],
    [PlatformErrorCode.MALFORMED_URI, 'validation'],
    [PlatformErrorCode.HEADERS_TOO_LARGE, 'validation'],
    [PlatformErrorCode.PAYLOAD_TOO_LARGE, 'payload_too_large'],
    [PlatformErrorCode.UNSUPPORTED_ENCODING, 'validation'],
    [PlatformErrorCode.UNSUPPORTED_MEDIA_TYPE, 'validation'],
    [PlatformErrorCode.REQUEST_ABORTED, 'validation'],
    [PlatformErrorCode.ADMIN_UNAUTHORIZED, 'unauthorized'],
    [PlatformErrorCode.RATE_LIMITED, 'rate_limited'],
    [PlatformErrorCode.DATABASE_UNAVAILABLE, 'unavailable'],
    [PlatformErrorCode.INTERNAL, 'internal'],
  ] as const)('gives platform code %s the status of its kind %s', (code, kind) => {
    expect(presentMigrationError({ ...base, code, kind })).toEqual(byKind(kind));
  });

  it('renders a busy instance as 429 RESOURCE_EXHAUSTED, apart from an outage (503 UNAVAILABLE)', () => {
    const busy = presentMigrationError({ ...base, code: PlatformErrorCode.SERVICE_BUSY, kind: 'unavailable' });
    expect(busy).toEqual({ status: 429, body: { error: { message: 'm', status: 'RESOURCE_EXHAUSTED' } } });
  });

  it('has a row for every code it declares, and words the missing credentials for this API', () => {
    expect(Object.keys(WIRE_BY_CODE).sort()).toEqual(
      [...Object.values(MigrationErrorCode), ...Object.values(PlatformErrorCode)].sort(),
    );
    const error = MigrationErrors.unauthenticated();
    expect(presentMigrationError({ ...base, code: error.code, kind: error.kind, message: error.message })).toEqual({
      status: 401,
      body: {
        error: {
          message: 'Valid x-service-api-key and x-service-auth-token headers are required.',
          status: 'UNAUTHENTICATED',
        },
      },
    });
  });
});
