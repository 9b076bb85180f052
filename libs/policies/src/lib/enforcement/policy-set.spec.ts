import fc from 'fast-check';
import { PolicyConfiguration } from '../policy-rules';
import { EnforceablePolicy } from './enforceable-policy';
import { PolicySet } from './policy-set';

const block: PolicyConfiguration = { action: 'block', limit: 5 };
const policy = (id: string, consumerSelector: string, configuration = block): EnforceablePolicy => ({
  id,
  resource: 'oauth_authentication_api',
  consumer: 'client',
  consumerSelector,
  configuration,
});

const GENERATED = 'AbCdEf0123456789AbCdEf0123456789';
const CIMD = 'https://app.example.com/client.json';

describe('PolicySet.resolve', () => {
  const all = PolicySet.from([
    policy('rlp_exact', `client_id:${GENERATED}`),
    policy('rlp_uri', `client_id:${CIMD}`),
    policy('rlp_cimd', 'cimd_clients'),
    policy('rlp_third', 'third_party_clients'),
    policy('rlp_default', 'default'),
  ]);

  it.each([
    ['an exact generated id over every group', { clientId: GENERATED, isFirstParty: false }, 'rlp_exact', 'client'],
    ['an exact URI id over cimd_clients', { clientId: CIMD, isFirstParty: false }, 'rlp_uri', 'client'],
    [
      'cimd_clients over third_party_clients',
      { clientId: 'https://other.example/c', isFirstParty: false },
      'rlp_cimd',
      'group',
    ],
    [
      'cimd_clients for a first-party URI client',
      { clientId: 'https://other.example/c', isFirstParty: true },
      'rlp_cimd',
      'group',
    ],
    ['third_party_clients over default', { clientId: 'plain', isFirstParty: false }, 'rlp_third', 'group'],
    [
      'default for a first-party client nobody targets',
      { clientId: 'plain', isFirstParty: true },
      'rlp_default',
      'default',
    ],
  ])('picks %s', (_label, client, id, level) => {
    expect(all.resolve(client)).toMatchObject({ policy: { id }, level });
  });

  it('falls through to the next level when a level has no policy', () => {
    const set = PolicySet.from([policy('rlp_third', 'third_party_clients'), policy('rlp_default', 'default')]);
    expect(set.resolve({ clientId: CIMD, isFirstParty: false })?.policy.id).toBe('rlp_third');
    expect(set.resolve({ clientId: CIMD, isFirstParty: true })?.policy.id).toBe('rlp_default');
  });

  it('resolves nothing (no limit) without a matching policy', () => {
    expect(PolicySet.empty.resolve({ clientId: GENERATED, isFirstParty: false })).toBeUndefined();
    const set = PolicySet.from([
      policy('rlp_other', 'client_id:someone-else'),
      policy('rlp_third', 'third_party_clients'),
    ]);
    expect(set.resolve({ clientId: GENERATED, isFirstParty: true })).toBeUndefined();
  });

  it('counts client and default policies per client, a group policy in one pooled bucket', () => {
    expect(all.resolve({ clientId: GENERATED, isFirstParty: true })?.bucketKey).toBe(`rlp_exact:c:${GENERATED}`);
    expect(all.resolve({ clientId: 'a', isFirstParty: true })?.bucketKey).toBe('rlp_default:c:a');
    expect(all.resolve({ clientId: 'b', isFirstParty: true })?.bucketKey).toBe('rlp_default:c:b');
    expect(all.resolve({ clientId: 'a', isFirstParty: false })?.bucketKey).toBe('rlp_third:g');
    expect(all.resolve({ clientId: 'b', isFirstParty: false })?.bucketKey).toBe('rlp_third:g');
  });

  it('ignores policies of another resource or consumer and unknown selectors', () => {
    const set = PolicySet.from([
      { ...policy('rlp_res', 'default'), resource: 'other_api' },
      { ...policy('rlp_con', 'default'), consumer: 'user' },
      policy('rlp_bad', 'client_ids:x'),
    ]);
    expect(set.size).toBe(0);
    expect(set.resolve({ clientId: 'x', isFirstParty: false })).toBeUndefined();
  });

  it('always honours the hierarchy for any client and any subset of policies', () => {
    const levels = ['exact', 'cimd_clients', 'third_party_clients', 'default'] as const;
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.webUrl({ validSchemes: ['https'] })),
        fc.boolean(),
        fc.subarray([...levels]),
        (clientId, isFirstParty, present) => {
          const set = PolicySet.from(
            present.map((level) => policy(`rlp_${level}`, level === 'exact' ? `client_id:${clientId}` : level)),
          );
          const cimd = clientId.startsWith('https://');
          const applicable = levels.filter(
            (level) =>
              present.includes(level) &&
              (level !== 'cimd_clients' || cimd) &&
              (level !== 'third_party_clients' || !isFirstParty),
          );
          expect(set.resolve({ clientId, isFirstParty })?.policy.id).toBe(
            applicable[0] ? `rlp_${applicable[0]}` : undefined,
          );
        },
      ),
    );
  });
});
