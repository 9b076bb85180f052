import fc from 'fast-check';
import { AppError } from '@acme/platform-errors';
import { parseDeviceRegistration } from './device-registration';

const rules = { allowInsecureEndpoints: false };
const base64url = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('')),
  minLength: 1,
  maxLength: 100,
});

describe('parseDeviceRegistration', () => {
  it('keys ios/android devices by token and web devices by endpoint', () => {
    expect(parseDeviceRegistration({ platform: 'ios', token: 'abc' }, rules)).toEqual({
      platform: 'ios',
      deviceKey: 'abc',
      token: 'abc',
    });
    const web = parseDeviceRegistration(
      { platform: 'web', subscription: { endpoint: 'https://p.example/1', keys: { p256dh: 'BA', auth: 'xy' } } },
      rules,
    );
    expect(web).toEqual({
      platform: 'web',
      deviceKey: 'https://p.example/1',
      subscription: { endpoint: 'https://p.example/1', keys: { p256dh: 'BA', auth: 'xy' } },
    });
  });

  it('accepts every well-formed registration', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({
            platform: fc.constantFrom('ios', 'android'),
            token: fc.string({ minLength: 1, maxLength: 4096 }).filter((s) => s.trim().length > 0),
          }),
          fc.record({
            platform: fc.constant('web'),
            subscription: fc.record({
              endpoint: fc.webUrl({ validSchemes: ['https'] }),
              keys: fc.record({ p256dh: base64url, auth: base64url }),
            }),
          }),
        ),
        (body) => {
          const parsed = parseDeviceRegistration(body, rules);
          expect(parsed.deviceKey).toBe('token' in body ? body.token : body.subscription.endpoint);
        },
      ),
    );
  });

  it('answers anything else with PUSH_DEVICE_INVALID_BODY, never another error', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (body) => {
        try {
          parseDeviceRegistration(body, rules);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('PUSH_DEVICE_INVALID_BODY');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses http endpoints unless allowed, and credentials in the endpoint', () => {
    const body = (endpoint: string) => ({
      platform: 'web',
      subscription: { endpoint, keys: { p256dh: 'a', auth: 'b' } },
    });
    expect(() => parseDeviceRegistration(body('http://p.example/1'), rules)).toThrow(AppError);
    expect(parseDeviceRegistration(body('http://p.example/1'), { allowInsecureEndpoints: true }).deviceKey).toBe(
      'http://p.example/1',
    );
    expect(() => parseDeviceRegistration(body('https://u:p@p.example/1'), rules)).toThrow(AppError);
    expect(() => parseDeviceRegistration(body('ftp://p.example/1'), { allowInsecureEndpoints: true })).toThrow(
      AppError,
    );
  });
});
