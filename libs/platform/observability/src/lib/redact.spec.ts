import { REDACTED, redactObject, redactUrl } from './redact';

describe('redaction', () => {
  it('redacts secret-looking query parameters and keeps the rest', () => {
    expect(redactUrl('/rum/rules/create?app_key=abc123&p=1')).toBe(
      `/rum/rules/create?app_key=${encodeURIComponent(REDACTED)}&p=1`,
    );
    expect(redactUrl('/health')).toBe('/health');
  });

  it('redacts nested secret-looking keys', () => {
    expect(redactObject({ name: 'n', auth: { client_secret: 's', password: 'p' }, list: [{ token: 't' }] })).toEqual({
      name: 'n',
      auth: { client_secret: REDACTED, password: REDACTED },
      list: [{ token: REDACTED }],
    });
  });
});
