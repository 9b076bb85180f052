import { PlatformErrorCode, PresentableError } from '@acme/platform-errors';
import { RumErrorCode } from '@acme/rum';
import { presentRumError, RUM_ERRORS, RUM_WIRE } from './error-presenter';

const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'detail', requestId: 'req-1' };

describe('presentRumError', () => {
  it.each([
    [{ ...base }, 400, 'InvalidParameter', 'The specified parameter is not valid: detail.'],
    [
      { ...base, code: RumErrorCode.RULE_NOT_FOUND, message: 'No such rule in this application.' },
      400,
      'InvalidParameter',
      'The specified parameter is not valid: rule_id: No such rule in this application.',
    ],
    [
      { ...base, code: RumErrorCode.FILTERS_INVALID, message: 'filters[0] must not be empty' },
      400,
      'InvalidParameter',
      'The specified parameter is not valid: filters[0] must not be empty.',
    ],
    [
      { ...base, status: 404, kind: 'not_found', code: 'ROUTE_NOT_FOUND' },
      404,
      'InvalidParameter',
      'The specified parameter is not valid.',
    ],
    [
      { ...base, status: 409, kind: 'conflict' },
      400,
      'InvalidParameter',
      'The specified parameter is not valid: detail.',
    ],
    [{ ...base, status: 401, kind: 'unauthorized' }, 401, 'Unauthorized', 'You are unauthorized.'],
    [{ ...base, status: 403, kind: 'forbidden' }, 403, 'Unauthorized', 'You are unauthorized.'],
    [{ ...base, status: 429, kind: 'rate_limited' }, 429, 'RequestTooFrequently', 'Request too frequently.'],
    [
      { ...base, status: 500, kind: 'internal' },
      500,
      'InternalError',
      'An internal error was encountered and reported; retry later.',
    ],
    [
      { ...base, status: 503, kind: 'unavailable' },
      503,
      'InternalError',
      'An internal error was encountered and reported; retry later.',
    ],
  ] as const)('renders %o', (error, status, code, message) => {
    expect(presentRumError(error as PresentableError)).toEqual({
      status,
      body: { request_id: 'req-1', error: { code, message } },
      headers: { 'Service-Request-Id': 'req-1' },
    });
  });
});

describe('RUM_WIRE', () => {
  it.each([
    [RumErrorCode.APP_KEY_INVALID, 'unauthorized', 401, 'Unauthorized'],
    [RumErrorCode.APPLICATION_ACCESS_DENIED, 'forbidden', 403, 'Unauthorized'],
    [RumErrorCode.RULE_NAME_TAKEN, 'conflict', 400, 'InvalidParameter'],
    [RumErrorCode.RULE_NOT_FOUND, 'not_found', 400, 'InvalidParameter'],
    [PlatformErrorCode.PAYLOAD_TOO_LARGE, 'payload_too_large', 413, 'InvalidParameter'],
    [PlatformErrorCode.DATABASE_UNAVAILABLE, 'unavailable', 503, 'InternalError'],
    [PlatformErrorCode.SERVICE_BUSY, 'unavailable', 503, 'InternalError'],
  ] as const)('maps %s to its row', (code, kind, status, wire) => {
    expect(presentRumError({ ...base, code, kind, status: 418 })).toMatchObject({
      status,
      body: { error: { code: wire } },
    });
  });

  it('never shows an internal code on the wire', () => {
    for (const code of Object.keys(RUM_WIRE)) {
      const { body } = presentRumError({ ...base, code, kind: 'internal' }) as { body: { error: { code: string } } };
      expect(Object.keys(RUM_ERRORS)).toContain(body.error.code);
    }
  });
});
