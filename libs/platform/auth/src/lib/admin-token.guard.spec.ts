import { ExecutionContext } from '@nestjs/common';
import { AppError } from '@acme/platform-errors';
import { AdminTokenGuard, basicPassword } from './admin-token.guard';

const context = (authorization?: string) =>
  ({
    switchToHttp: () => ({ getRequest: () => ({ headers: authorization ? { authorization } : {} }) }),
  }) as ExecutionContext;

function outcome(guard: AdminTokenGuard, header?: string): string {
  try {
    return guard.canActivate(context(header)) ? 'allowed' : 'denied';
  } catch (error) {
    return (error as AppError).kind;
  }
}

describe('AdminTokenGuard', () => {
  const guard = new AdminTokenGuard({ adminToken: 'operator-token-0123456789' });

  it('allows the configured bearer token', () => {
    expect(outcome(guard, 'Bearer operator-token-0123456789')).toBe('allowed');
  });

  it.each([undefined, 'Bearer wrong', 'Basic operator-token-0123456789', 'Bearer'])('refuses %p with 401', (header) => {
    expect(outcome(guard, header)).toBe('unauthorized');
  });

  it('hides the operator API (404) when no token is configured', () => {
    expect(outcome(new AdminTokenGuard({ adminToken: undefined }), 'Bearer anything')).toBe('not_found');
  });

  it('takes the token as an HTTP Basic password only where asked (the queue dashboard), never on guarded routes', () => {
    const basic = `Basic ${Buffer.from('anyone:operator-token-0123456789').toString('base64')}`;
    expect(outcome(guard, basic)).toBe('unauthorized');
    expect(() => guard.check({ headers: { authorization: basic } }, { basic: true })).not.toThrow();
    const wrong = `Basic ${Buffer.from('anyone:operator-token-012345678').toString('base64')}`;
    expect(() => guard.check({ headers: { authorization: wrong } }, { basic: true })).toThrow(AppError);
  });
});

describe('basicPassword', () => {
  it.each([
    [`Basic ${Buffer.from('user:pa:ss').toString('base64')}`, 'pa:ss'],
    [`Basic ${Buffer.from(':token').toString('base64')}`, 'token'],
    [`Basic ${Buffer.from('no-colon').toString('base64')}`, undefined],
    ['Basic !!!', undefined],
    ['Bearer abc', undefined],
    [undefined, undefined],
  ])('reads %p as %p', (authorization, expected) => {
    expect(basicPassword({ headers: authorization ? { authorization } : {} })).toBe(expected);
  });
});
