import fc from 'fast-check';
import { redactForAudit, REDACTED } from './audit-redaction';
import { isStorableText, toPostgresJson, toStorableText } from './text';

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, accepts pairs', () => {
    expect(isStorableText('a😀b')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\ud800')).toBe(false);
    expect(isStorableText('\udc00x')).toBe(false);
    expect(toStorableText('a\u0000\ud800')).toBe('a\ufffd');
  });

  it('rewrites only real NUL and lone-surrogate escapes in JSON text', () => {
    const text = toPostgresJson({ '\u0000k': 'a\u0000b', lone: '\ud800', literal: '\\ud800', pair: '😀' });
    expect(JSON.parse(text)).toEqual({ '\ufffdk': 'a\ufffdb', lone: '\ufffd', literal: '\\ud800', pair: '😀' });
  });

  it('keeps every other value intact', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = toPostgresJson(value);
        expect(text).not.toMatch(/(?<!\\)(\\\\)*\\u0000/);
        if (!JSON.stringify(value).match(/\\u(0000|d[89a-f])/i))
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('redactForAudit', () => {
  it('redacts secret-named fields and secret-looking values but keeps a filter key', () => {
    const redacted = redactForAudit({
      app_key: 'short',
      query: { token: 'x' },
      filters: [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]],
      description: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
      note: 'rum_ak_abc',
      random: 'Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNb',
      plain: 'a perfectly ordinary description',
    });
    expect(redacted).toEqual({
      app_key: REDACTED,
      query: { token: REDACTED },
      filters: [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]],
      description: REDACTED,
      note: REDACTED,
      random: REDACTED,
      plain: 'a perfectly ordinary description',
    });
  });
});
