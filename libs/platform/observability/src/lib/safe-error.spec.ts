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
});
