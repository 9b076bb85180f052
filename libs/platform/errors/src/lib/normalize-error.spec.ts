import {
  BadRequestException,
  NotFoundException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { AppError } from './app-error';
import { normalizeError } from './normalize-error';

describe('normalizeError', () => {
  it('keeps an AppError and maps its kind to a status', () => {
    const error = new AppError('POLICY_NOT_FOUND', 'not_found', 'gone');
    expect(normalizeError(error)).toEqual({ error, status: 404, unexpected: false });
  });

  it('turns Nest route misses into ROUTE_NOT_FOUND', () => {
    const { error, status } = normalizeError(new NotFoundException('Cannot GET /x'));
    expect([status, error.code, error.message]).toEqual([404, 'ROUTE_NOT_FOUND', 'Not Found']);
  });

  it('names malformed JSON without echoing the parser text', () => {
    const { error, status } = normalizeError(new BadRequestException('Unexpected token } in JSON at position 3'));
    expect([status, error.code, error.message]).toEqual([400, 'MALFORMED_BODY', 'The request body is not valid JSON.']);
  });

  it('keeps the status of other HTTP exceptions', () => {
    const { error, status } = normalizeError(new PayloadTooLargeException());
    expect([status, error.kind]).toEqual([413, 'payload_too_large']);
  });

  it('maps body-parser errors that carry a 4xx status', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), {
      status: 413,
      type: 'entity.too.large',
      expose: true,
    });
    expect(normalizeError(tooLarge)).toMatchObject({
      status: 413,
      unexpected: false,
      error: { code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  it('names the HTTP exceptions of Fastify body limits and media types, and its bad-URL error', () => {
    expect(normalizeError(new PayloadTooLargeException('Request body is too large'))).toMatchObject({
      status: 413,
      error: { code: 'PAYLOAD_TOO_LARGE', kind: 'payload_too_large' },
    });
    expect(normalizeError(new UnsupportedMediaTypeException())).toMatchObject({
      status: 415,
      error: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    // A broken percent-escape in the path (Fastify's router error, as is); the message does not echo the path.
    const badUrl = normalizeError(
      Object.assign(new Error("'/a/%zz' is not a valid url component"), { code: 'FST_ERR_BAD_URL', statusCode: 400 }),
    );
    expect(badUrl).toMatchObject({
      status: 400,
      unexpected: false,
      error: { code: 'MALFORMED_URI', kind: 'validation' },
    });
    expect(badUrl.error.message).not.toContain('%zz');
  });

  it('hides anything else behind a generic 500', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
    });
    const { error, status, unexpected } = normalizeError(driverError);
    expect([status, unexpected, error.code, error.message]).toEqual([500, true, 'INTERNAL', 'Internal server error']);
    expect(error.message).not.toContain('duplicate');
  });
});

describe('normalizeError: PostgreSQL unavailable', () => {
  const wrapped = (driverError: unknown) => Object.assign(new Error('query failed'), { driverError });
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['both addresses refused', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], '')],
    ['pool checkout timeout', new Error('timeout exceeded when trying to connect')],
    [
      'server restarting (57P03)',
      wrapped(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ],
    ['admin shutdown (57P01)', wrapped(Object.assign(new Error('terminating connection'), { code: '57P01' }))],
    ['connection lost mid-query', new Error('Connection terminated unexpectedly')],
  ])('%s → 503 with Retry-After', (_name, thrown) => {
    const { error, status } = normalizeError(thrown);
    expect(status).toBe(503);
    expect(error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', kind: 'unavailable', retryAfterSeconds: 5 });
  });

  it('keeps a wrong query a 500', () => {
    expect(normalizeError(wrapped(Object.assign(new Error('syntax error'), { code: '42601' }))).status).toBe(500);
  });

  it('answers a pool timeout marked as overload "busy" (503, Retry-After 1), an unmarked one "unavailable"', () => {
    const timeout = () => new Error('timeout exceeded when trying to connect');
    const overload = { pool: 'primary', size: 10, inUse: 10, waiting: 3, eventLoopDelayMs: 12 };
    const busy = normalizeError(Object.assign(timeout(), { overload }));
    expect({ status: busy.status, code: busy.error.code, retryAfter: busy.error.retryAfterSeconds }).toEqual({
      status: 503,
      code: 'SERVICE_BUSY',
      retryAfter: 1,
    });
    const outage = normalizeError(timeout());
    expect({ status: outage.status, code: outage.error.code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    const refused = normalizeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(refused.error.code).toBe('DATABASE_UNAVAILABLE');
  });
});
