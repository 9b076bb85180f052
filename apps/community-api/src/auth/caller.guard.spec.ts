import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { digestSecret } from '@acme/platform-auth';
import { AppError } from '@acme/platform-errors';
import {
  AccessTokenService,
  CallerResolver,
  CommunitySettings,
  Project,
  ProjectService,
  SystemClock,
} from '@acme/community';
import { CALLER_RULE, CallerGuard, CallerRule } from './caller.guard';
import { CommunityRequest } from './community-request';

const settings: CommunitySettings = {
  authSecret: 'unit-test-secret-0123456789-0123456789',
  accessTokenTtlSeconds: 1800,
  refreshTokenTtlSeconds: 3600,
  issuer: 'community-api',
  signInAttemptsPerMinute: 1,
};
const project = {
  id: '11111111-1111-4111-8111-111111111111',
  bundles: [],
  serviceKeyDigest: digestSecret('sk_service'),
  masterKeyDigest: digestSecret('mk_master'),
} as unknown as Project;
const tokens = new AccessTokenService(settings, new SystemClock());
const resolver = new CallerResolver(new ProjectService(null as never, null as never), tokens);

function run(rule: CallerRule, authorization?: string): CommunityRequest {
  const request = { project, headers: authorization ? { authorization } : {} } as unknown as CommunityRequest;
  const handler = () => undefined;
  Reflect.defineMetadata(CALLER_RULE, rule, handler);
  const context = {
    getHandler: () => handler,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  new CallerGuard(new Reflector(), resolver).canActivate(context);
  return request;
}

const failure = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a failure');
};

describe('CallerGuard', () => {
  const userToken = tokens.sign(project.id, '22222222-2222-4222-8222-222222222222');
  const any: CallerRule = { kinds: ['user', 'service', 'master'] };

  it('identifies end users, service keys and master keys', () => {
    expect(run(any, `Bearer ${userToken}`).caller).toEqual({
      kind: 'user',
      userId: '22222222-2222-4222-8222-222222222222',
    });
    expect(run(any, 'Bearer sk_service').caller).toEqual({ kind: 'service' });
    expect(run(any, 'Bearer mk_master').caller).toEqual({ kind: 'master' });
  });

  it('401 without credentials, 403 for bad credentials or a kind the route refuses', () => {
    expect(failure(() => run(any)).code).toBe('AUTH_UNAUTHORIZED');
    expect(failure(() => run(any, 'Basic abc')).code).toBe('AUTH_UNAUTHORIZED');
    for (const header of [
      'Bearer sk_other',
      'Bearer mk_service',
      'Bearer sk_master',
      'Bearer x.y.z',
      `Bearer ${tokens.sign('33333333-3333-4333-8333-333333333333', 'u')}`,
    ]) {
      expect(failure(() => run(any, header)).code).toBe('AUTH_FORBIDDEN');
    }
    expect(failure(() => run({ kinds: ['user'] }, 'Bearer sk_service')).code).toBe('AUTH_FORBIDDEN');
  });

  it('optional routes run without a caller when no credentials came, and check credentials that did', () => {
    const optional: CallerRule = { kinds: ['user'], optional: true };
    expect(run(optional).caller).toBeUndefined();
    expect(run(optional, `Bearer ${userToken}`).caller).toEqual({
      kind: 'user',
      userId: '22222222-2222-4222-8222-222222222222',
    });
    for (const header of ['Bearer junk', 'Bearer sk_service', 'Bearer mk_master'])
      expect(failure(() => run(optional, header)).code).toBe('AUTH_FORBIDDEN');
  });

  it('answers every refusal with the route error when one is given', () => {
    const rejectAs = () => new AppError('PUSH_DEVICE_UNAUTHORIZED', 'unauthorized', 'no');
    for (const header of [undefined, 'Bearer sk_service', 'Bearer mk_master', 'Bearer junk']) {
      expect(failure(() => run({ kinds: ['user'], rejectAs }, header)).code).toBe('PUSH_DEVICE_UNAUTHORIZED');
    }
  });

  it("keeps each route's own rule when one guard serves several routes (the rule is read once per route)", () => {
    const guard = new CallerGuard(new Reflector(), resolver);
    class Routes {}
    const [usersOnly, keysToo] = [() => undefined, () => undefined];
    Reflect.defineMetadata(CALLER_RULE, { kinds: ['user'] } satisfies CallerRule, usersOnly);
    Reflect.defineMetadata(CALLER_RULE, { kinds: ['user', 'service'] } satisfies CallerRule, keysToo);
    const attempt = (handler: () => undefined) => {
      const request = { project, headers: { authorization: 'Bearer sk_service' } } as unknown as CommunityRequest;
      const context = {
        getHandler: () => handler,
        getClass: () => Routes,
        switchToHttp: () => ({ getRequest: () => request }),
      } as unknown as ExecutionContext;
      return failure(() => {
        guard.canActivate(context);
        throw new AppError('ALLOWED', 'conflict', 'allowed');
      }).code;
    };
    for (let round = 0; round < 2; round += 1)
      expect([attempt(usersOnly), attempt(keysToo)]).toEqual(['AUTH_FORBIDDEN', 'ALLOWED']);
  });
});
