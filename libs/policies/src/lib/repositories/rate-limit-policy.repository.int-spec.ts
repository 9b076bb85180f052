import { DataSource } from 'typeorm';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';
import { createDataSource, ReadReplicas } from '@acme/platform-persistence';
import { createTestDatabase, TestDatabase } from '@acme/platform-test-infra';
import { POLICIES_MIGRATIONS } from '../../migrations';
import { RateLimitPolicy } from '../rate-limit-policy.entity';
import { NewPolicy, RateLimitPolicyRepository } from './rate-limit-policy.repository';

const policy = (id: string, consumerSelector: string, overrides: Partial<NewPolicy> = {}): NewPolicy => ({
  id,
  resource: 'oauth_authentication_api',
  consumer: 'client',
  consumerSelector,
  configuration: { action: 'block', limit: 10 },
  ...overrides,
});

describe('RateLimitPolicyRepository (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let replicas: ReadReplicas;
  let policies: RateLimitPolicyRepository;
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  beforeAll(async () => {
    database = await createTestDatabase('rate_limit_policy_repository');
    dataSource = createDataSource({
      url: database.url,
      schema: MANAGEMENT_SCHEMA,
      migrations: POLICIES_MIGRATIONS,
      entities: [RateLimitPolicy],
    });
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS ${MANAGEMENT_SCHEMA}`);
    await dataSource.runMigrations();
    replicas = new ReadReplicas(dataSource, dataSource.options, { urls: [], maxLagMs: 1000 });
    policies = new RateLimitPolicyRepository(dataSource.getRepository(RateLimitPolicy), replicas);
  });
  afterAll(async () => {
    await replicas?.onApplicationShutdown();
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('inserts a policy and answers the stored row (RETURNING); the same target again is undefined, not an error', async () => {
    const created = await policies.insert(policy('rlp_insert', 'default'));
    expect(created).toMatchObject({
      id: 'rlp_insert',
      consumerSelector: 'default',
      configuration: { action: 'block', limit: 10 },
    });
    expect(created?.createdAt).toBeInstanceOf(Date);
    expect(await policies.insert(policy('rlp_other', 'default'))).toBeUndefined();
    expect(await policies.findById('rlp_other')).toBeUndefined();
    expect(await policies.findById('rlp_insert')).toEqual(created);
  });

  it('updates the configuration of an existing policy (RETURNING, updated_at moves) and answers undefined otherwise', async () => {
    const created = await policies.insert(policy('rlp_update', 'client_id:abc'));
    // The columns keep milliseconds, and both writes can fall in one: the stored times are set a second back first,
    // so the update's own time is seen.
    await dataSource.query(
      `UPDATE ${MANAGEMENT_SCHEMA}.rate_limit_policies SET created_at = created_at - interval '1 second', updated_at = updated_at - interval '1 second' WHERE id = $1`,
      ['rlp_update'],
    );
    const updated = await policies.updateConfiguration('rlp_update', { action: 'allow' });
    expect(updated?.configuration).toEqual({ action: 'allow' });
    expect(updated!.createdAt.getTime()).toBe(created!.createdAt.getTime() - 1000);
    expect(updated!.updatedAt.getTime()).toBeGreaterThan(created!.updatedAt.getTime() - 1000);
    expect(await policies.updateConfiguration('rlp_nothing', { action: 'allow' })).toBeUndefined();
  });

  it('deletes once', async () => {
    await policies.insert(policy('rlp_delete', 'third_party_clients'));
    expect(await policies.deleteById('rlp_delete')).toBe(true);
    expect(await policies.deleteById('rlp_delete')).toBe(false);
  });

  it('lists by filter in creation order after a keyset position, and by resource', async () => {
    await dataSource.query(`DELETE FROM ${MANAGEMENT_SCHEMA}.rate_limit_policies`);
    for (const [id, selector] of [
      ['rlp_1', 'default'],
      ['rlp_2', 'cimd_clients'],
      ['rlp_3', 'client_id:x'],
    ])
      await policies.insert(policy(id, selector));
    const all = await policies.listPage({}, 10);
    expect(ids(all)).toEqual(['rlp_1', 'rlp_2', 'rlp_3']);
    expect(ids(await policies.listPage({}, 1, { createdAt: new Date(all[0].createdAt), id: all[0].id }))).toEqual([
      'rlp_2',
    ]);
    expect(ids(await policies.listPage({ consumerSelector: 'client_id:x' }, 10))).toEqual(['rlp_3']);
    expect(ids(await policies.listPage({ resource: 'oauth_authentication_api', consumer: 'client' }, 2))).toEqual([
      'rlp_1',
      'rlp_2',
    ]);
    expect(ids(await policies.findAllByResource('oauth_authentication_api'))).toEqual(['rlp_1', 'rlp_2', 'rlp_3']);
  });

  it('lists the same fields as the entity, timestamps as its toISOString (whole, .1 and .12 seconds too)', async () => {
    await dataSource.query(`DELETE FROM ${MANAGEMENT_SCHEMA}.rate_limit_policies`);
    const stamps = [
      '2026-01-02 03:04:05+00',
      '2026-01-02 03:04:05.1+00',
      '2026-01-02 03:04:05.12+00',
      '2026-01-02 03:04:05.123+00',
    ];
    for (const [index, stamp] of stamps.entries()) {
      await policies.insert(policy(`rlp_ts${index}`, `client_id:ts${index}`));
      await dataSource.query(
        `UPDATE ${MANAGEMENT_SCHEMA}.rate_limit_policies SET created_at = $2, updated_at = $2::timestamptz + interval '1 day' WHERE id = $1`,
        [`rlp_ts${index}`, stamp],
      );
    }
    const listed = await policies.listPage({}, 10);
    const entities = await policies.findAllByResource('oauth_authentication_api');
    expect(listed).toEqual(
      entities.map((entity) => ({
        ...entity,
        createdAt: entity.createdAt.toISOString(),
        updatedAt: entity.updatedAt.toISOString(),
      })),
    );
    expect(listed.map((item) => item.createdAt)).toEqual([
      '2026-01-02T03:04:05.000Z',
      '2026-01-02T03:04:05.100Z',
      '2026-01-02T03:04:05.120Z',
      '2026-01-02T03:04:05.123Z',
    ]);
  });

  it('changes the fingerprint of a resource on insert, update and delete', async () => {
    const before = await policies.fingerprintByResource('oauth_authentication_api');
    await policies.insert(policy('rlp_fp', 'client_id:fp'));
    const inserted = await policies.fingerprintByResource('oauth_authentication_api');
    await policies.updateConfiguration('rlp_fp', { action: 'allow' });
    const updated = await policies.fingerprintByResource('oauth_authentication_api');
    await policies.deleteById('rlp_fp');
    expect(new Set([before, inserted, updated]).size).toBe(3);
    expect(await policies.fingerprintByResource('oauth_authentication_api')).toBe(before);
  });

  it('changes the fingerprint on a patch in the millisecond of the insert', async () => {
    await policies.insert(policy('rlp_same_ms', 'client_id:same-ms'));
    const pin = `UPDATE ${MANAGEMENT_SCHEMA}.rate_limit_policies SET updated_at = '2026-01-02T03:04:05.006Z' WHERE id = $1`;
    await dataSource.query(pin, ['rlp_same_ms']);
    const inserted = await policies.fingerprintByResource('oauth_authentication_api');
    await policies.updateConfiguration('rlp_same_ms', { action: 'allow' });
    await dataSource.query(pin, ['rlp_same_ms']);
    expect(await policies.fingerprintByResource('oauth_authentication_api')).not.toBe(inserted);
    await policies.deleteById('rlp_same_ms');
  });
});
