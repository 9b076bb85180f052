import fc from 'fast-check';
import { err as pinoErrorSerializer, wrapErrorSerializer } from 'pino-std-serializers';
import { QueryFailedError } from 'typeorm';
import { safeErrorMessage, serializeError } from './safe-error';

const DIGEST = 'scrypt$32768$8$1$c2FsdA$ZGlnZXN0';

function driverError(code: string, message: string) {
  return Object.assign(new Error(message), {
    code,
    severity: 'ERROR',
    constraint: 'users_email_key',
    table: 'users',
    detail: `Key (email)=(x) already exists`,
    parameters: [DIGEST],
  });
}

describe('serializeError', () => {
  it('keeps a database error to its SQLSTATE, constraint, table and query text', () => {
    const error = new QueryFailedError(
      'INSERT INTO users (email, password_hash) VALUES ($1, $2)',
      ['a@b.c', DIGEST],
      driverError('23505', `duplicate ${DIGEST}`),
    );
    const serialized = serializeError(error);
    expect(serialized).toMatchObject({
      type: 'QueryFailedError',
      sqlstate: '23505',
      constraint: 'users_email_key',
      table: 'users',
      query: 'INSERT INTO users (email, password_hash) VALUES ($1, $2)',
    });
    const text = JSON.stringify(serialized);
    expect(text).not.toContain(DIGEST);
    expect(text).not.toContain('a@b.c');
    expect(text).not.toContain('parameters');
    expect(text).not.toContain('already exists');
  });

  it('treats a bare pg error the same way', () => {
    const text = JSON.stringify(
      serializeError(driverError('22P02', `invalid input syntax for type uuid: "${DIGEST}"`)),
    );
    expect(text).toContain('22P02');
    expect(text).not.toContain(DIGEST);
  });

  it('keeps message, code and causes of other errors', () => {
    const error = new Error('connect failed', {
      cause: Object.assign(new Error('ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    });
    expect(serializeError(error)).toMatchObject({
      type: 'Error',
      message: 'connect failed',
      cause: { code: 'ECONNREFUSED', message: 'ECONNREFUSED 127.0.0.1:5432' },
    });
  });

  it('gives a one-line message without driver text', () => {
    expect(safeErrorMessage(driverError('23514', `check ${DIGEST}`))).toBe('Error (SQLSTATE 23514)');
    expect(safeErrorMessage(new Error('plain'))).toBe('plain');
  });

  it('renders a thrown plain object by its own fields and nested cause, never "[object Object]"', () => {
    const thrown = {
      message: 'Connection terminated due to connection timeout',
      code: 'ETIMEDOUT',
      attempt: 3,
      password: 'hunter2-hunter2',
      parameters: [DIGEST],
      cause: { error: new Error('socket hang up') },
    };
    const serialized = serializeError(thrown);
    expect(serialized).toMatchObject({
      type: 'object',
      message: 'Connection terminated due to connection timeout',
      code: 'ETIMEDOUT',
      attempt: 3,
      cause: { type: 'object', error: { type: 'Error', message: 'socket hang up' } },
    });
    const text = JSON.stringify(serialized);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(DIGEST);
    expect(text).not.toContain('[object Object]');
  });

  it('names strings, class instances and AggregateErrors by type with their messages', () => {
    class RotationRefused {
      constructor(readonly reason: string) {}
    }
    expect(serializeError('pool exhausted')).toEqual({ type: 'string', message: 'pool exhausted' });
    expect(serializeError(new RotationRefused('locked'))).toMatchObject({ type: 'RotationRefused', reason: 'locked' });
    const aggregate = new AggregateError([new Error('replica 1 down'), 'replica 2 down'], 'no replica answered');
    expect(serializeError(aggregate)).toMatchObject({
      type: 'AggregateError',
      message: 'no replica answered',
      errors: [
        { type: 'Error', message: 'replica 1 down' },
        { type: 'string', message: 'replica 2 down' },
      ],
    });
  });

  it("reads the thrown value under pino-http's wrapping serializer, database errors included", () => {
    // pino-http passes our serializer the output of pino's own: the original sits on its `raw`.
    const wrapped = wrapErrorSerializer(serializeError);
    expect(wrapped(new Error('timeout exceeded when trying to connect'))).toMatchObject({
      type: 'Error',
      message: 'timeout exceeded when trying to connect',
    });
    const database = new QueryFailedError('SELECT $1', [DIGEST], driverError('22P02', `bad ${DIGEST}`));
    const text = JSON.stringify(wrapped(database));
    expect(text).toContain('"sqlstate":"22P02"');
    expect(text).not.toContain(DIGEST);
    expect(pinoErrorSerializer(new Error('x'))).toHaveProperty('raw');
  });

  it('always yields a type and a message for anything thrown, without secret-named fields', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string({ minLength: 8 }), (thrown, secret) => {
        const withSecret =
          thrown !== null && typeof thrown === 'object' && !Array.isArray(thrown)
            ? { ...(thrown as object), apiKey: `s3cr3t-${secret}` }
            : thrown;
        const serialized = serializeError(withSecret);
        expect(typeof serialized['type']).toBe('string');
        expect(typeof serialized['message']).toBe('string');
        expect(JSON.stringify(serialized)).not.toContain(`s3cr3t-${secret}`);
      }),
    );
  });
});
