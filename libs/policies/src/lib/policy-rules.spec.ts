import fc from 'fast-check';
import { configurationProblems, isStrictHttpsUri, parseConsumerSelector } from './policy-rules';

describe('parseConsumerSelector', () => {
  it.each([
    ['default', { kind: 'default' }],
    ['cimd_clients', { kind: 'cimd_clients' }],
    ['third_party_clients', { kind: 'third_party_clients' }],
    ['client_id:abc_DEF-1.2~', { kind: 'client_id', clientId: 'abc_DEF-1.2~' }],
    [
      'client_id:https://app.example.com/meta.json',
      { kind: 'cimd_client', clientId: 'https://app.example.com/meta.json' },
    ],
  ])('reads %s', (text, expected) => {
    expect(parseConsumerSelector(text)).toEqual(expected);
  });

  it.each([
    '',
    'Default',
    'client_id:',
    'client_id:a b',
    'client_id:http://x.test',
    'client_id:https://',
    'client:abc',
    `client_id:${'a'.repeat(246)}`,
    42,
    null,
  ])('rejects %j', (text) => {
    expect(parseConsumerSelector(text)).toBeUndefined();
  });

  it('accepts exactly 255 characters', () => {
    expect(parseConsumerSelector(`client_id:${'a'.repeat(245)}`)).toBeDefined();
  });

  it('never accepts a string longer than 255', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 256, maxLength: 400 }), (text) => parseConsumerSelector(text) === undefined),
    );
  });
});

describe('configurationProblems', () => {
  it.each([
    { action: 'allow' },
    { action: 'block', limit: 0 },
    { action: 'log', limit: 10000 },
    { action: 'redirect', limit: 5, redirect_uri: 'https://x.test/a?b=c' },
  ])('accepts %j', (configuration) => {
    expect(configurationProblems(configuration)).toEqual([]);
  });

  it.each([
    [{ action: 'allow', limit: 1 }, 'configuration.limit is not allowed'],
    [{ action: 'block' }, 'configuration.limit must be an integer'],
    [{ action: 'block', limit: 10001 }, 'configuration.limit must be an integer'],
    [{ action: 'redirect', limit: 1, redirect_uri: 'http://x.test' }, 'redirect_uri'],
    [{ action: 'nope' }, 'configuration.action must be one of'],
    ['allow', 'configuration must be an object'],
  ])('rejects %j naming the problem', (configuration, problem) => {
    expect(configurationProblems(configuration).join(' ')).toContain(problem);
  });

  it('accepts a limit exactly when it is an integer from 0 to 10000', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -20000, max: 20000 }), fc.double()), (limit) => {
        const valid = Number.isInteger(limit) && limit >= 0 && limit <= 10000;
        return (configurationProblems({ action: 'block', limit }).length === 0) === valid;
      }),
    );
  });
});

describe('isStrictHttpsUri', () => {
  it.each([
    ['https://example.com', true],
    ['https://example.com/a path', false],
    ['https://user:pw@example.com/', false],
    ['HTTPS://example.com', false],
    ['javascript:alert(1)', false],
  ])('%s -> %s', (uri, expected) => {
    expect(isStrictHttpsUri(uri)).toBe(expected);
  });
});
