import fc from 'fast-check';
import { AppError } from '@acme/platform-errors';
import { allowedRedirect, MAX_REDIRECT_ORIGINS, normalizeRedirectOrigins, parseOrigin } from './redirect-origins';

describe('redirect origins', () => {
  it('parses exactly an http(s) origin into its canonical form', () => {
    expect(parseOrigin('https://App.Example.com:443/')).toBe('https://app.example.com');
    expect(parseOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    for (const value of [
      'https://a.example/x',
      'https://a.example?x',
      'https://a.example#x',
      'https://u@a.example',
      'data:text/html,x',
      'a.example',
      '',
    ])
      expect(parseOrigin(value)).toBeUndefined();
  });

  it('allows a URL only when its origin is listed', () => {
    const project = { redirectOrigins: ['https://app.example.com'] };
    expect(allowedRedirect(project, 'https://app.example.com/done?x=1')).toBe('https://app.example.com/done?x=1');
    for (const url of [
      undefined,
      'https://app.example.com.evil.example/',
      'https://evil.example/?https://app.example.com',
      'http://app.example.com/',
      'https://app.example.com:444/',
      'https://x@app.example.com/',
      'javascript:alert(1)',
      'not a url',
    ])
      expect(allowedRedirect(project, url)).toBeUndefined();
    expect(allowedRedirect({ redirectOrigins: [] }, 'https://app.example.com/')).toBeUndefined();
  });

  it('never allows a URL whose origin is not on the list (generated URLs)', () => {
    const project = { redirectOrigins: ['https://app.example.com'] };
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const allowed = allowedRedirect(project, url);
        if (allowed) expect(new URL(allowed).origin).toBe('https://app.example.com');
      }),
      { numRuns: 50 },
    );
  });

  it('normalizes a list, or refuses it naming the bad value', () => {
    expect(normalizeRedirectOrigins(['https://A.example', 'https://a.example/'])).toEqual(['https://a.example']);
    const refused = (values: string[]) => {
      try {
        normalizeRedirectOrigins(values);
      } catch (error) {
        return error as AppError;
      }
      throw new Error('expected a refusal');
    };
    expect(refused(['https://a.example', 'https://b.example/x']).message).toContain('https://b.example/x');
    expect(refused(['https://a.example/x']).kind).toBe('validation');
    const many = Array.from({ length: MAX_REDIRECT_ORIGINS + 1 }, (_, i) => `https://a${i}.example`);
    expect(refused(many).kind).toBe('validation');
  });
});
