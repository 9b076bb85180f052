import { ExecutionContext } from '@nestjs/common';
import { AppError } from '@acme/platform-errors';
import { AdminTokenGuard } from './admin-token.guard';

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
});
