import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { ReadReplicas } from '@acme/platform-persistence';
import { RedisPubSub } from '@acme/platform-redis';
import { createTestRedisPrefix, testRedisUrl } from '@acme/platform-test-infra';
import { RumTestDatabase } from '../../test/rum-test-database';
import { Filters } from './filters';
import { ApplicationsRepository } from './repositories/applications.repository';
import { RuleSetSnapshotsRepository } from './repositories/rule-set-snapshots.repository';
import { RulesRepository } from './repositories/rules.repository';
import { RuleSetCache } from './rule-set.cache';
import { RuleSetStore } from './rule-set.store';
import { RulesService } from './rules.service';
import { rumTable } from '@acme/rum-schema';

const RULES = 50;
const CHANGES = 100;
/** ~18 KB of incompressible filter text per rule: 50 rules stay under the 1 MiB per-application cap. */
const bigFilters = (): Filters => [
  [{ key: 'error.message', oper: 'IN', vals: Array.from({ length: 20 }, () => randomBytes(675).toString('base64')) }],
];
const actor = { id: 1, name: 'alice' };

describe('RuleSetStore history storage (real Postgres and Redis)', () => {
  let database: RumTestDatabase;
  let redis: Redis;
  let pubsub: RedisPubSub;
  let service: RulesService;
  let store: RuleSetStore;
  let applicationId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-rule-set-store');
    redis = new Redis(testRedisUrl());
    pubsub = new RedisPubSub(redis, createTestRedisPrefix('rum-rule-set-store'));
    const replicas = new ReadReplicas(database.db, database.db.options, { urls: [], maxLagMs: 1000 });
    store = new RuleSetStore(
      database.db,
      new ApplicationsRepository(database.db),
      new RuleSetSnapshotsRepository(database.db),
      pubsub,
      replicas,
    );
    service = new RulesService(new RulesRepository(database.db), store);
    ({ applicationId } = await database.tenant('big'));
    for (let i = 0; i < RULES; i++)
      ids.push((await service.create(actor, applicationId, { name: `rule ${i}`, filters: bigFilters() })).id);
    for (let i = 0; i < CHANGES; i++)
      await service.update(actor, applicationId, ids[i % RULES] as string, { description: `change ${i}` });
  }, 120000);
  afterAll(async () => {
    await pubsub?.onApplicationShutdown();
    redis?.disconnect();
    await database?.stop();
  });

  it('stores each rule version once: 100 changes to 50 large rules cost 150 rule versions, not 100 × 50', async () => {
    const [counts] = await database.db.query(
      `SELECT (SELECT count(*)::int FROM ${rumTable('rule_versions')}) AS "versions",
              (SELECT count(*)::int FROM ${rumTable('rule_set_snapshots')}) AS "snapshots",
              (SELECT sum(cardinality("rule_ids"))::int FROM ${rumTable('rule_set_snapshots')}) AS "references",
              (SELECT sum(octet_length("filters"::text))::bigint FROM ${rumTable('rules')}) AS "live_filter_bytes",
              pg_total_relation_size('${rumTable('rule_versions')}') AS "version_bytes",
              pg_total_relation_size('${rumTable('rule_set_snapshots')}') AS "snapshot_bytes"`,
    );
    expect(counts.versions).toBe(RULES + CHANGES);
    expect(counts.snapshots).toBe(RULES + CHANGES);
    // What whole-set snapshots would hold: every snapshot repeats every rule present at the time.
    expect(counts.references).toBe((RULES * (RULES + 1)) / 2 + CHANGES * RULES);
    const perRule = Number(counts.live_filter_bytes) / RULES;
    expect(perRule).toBeGreaterThan(17_000);
    // Linear: about one rule's filters per change (plus page and index overhead), far below 100 × 50 rules.
    expect(Number(counts.version_bytes)).toBeLessThan(2 * (RULES + CHANGES) * perRule);
    expect(Number(counts.version_bytes)).toBeLessThan((counts.references * perRule) / 10);
    // The snapshots themselves hold only references: a few bytes per rule.
    expect(Number(counts.snapshot_bytes)).toBeLessThan(counts.references * 64 + 128 * 1024);
  });

  it('rebuilds every version as it was, for history and for the matcher', async () => {
    const page = await store.history(applicationId, { page: 0, limit: 3, orderBy: 'version', asc: false });
    expect(page.total).toBe(RULES + CHANGES);
    expect(page.items.map(({ version }) => version)).toEqual([150, 149, 148]);
    const latest = page.items[0]?.rules ?? [];
    expect(latest.map(({ id }) => id)).toEqual(ids);
    expect(latest.map(({ description }) => description).slice(0, 2)).toEqual(['change 50', 'change 51']);
    // Version 51 is the first change: rule 0 has its first description, rule 1 none yet.
    const first = await store.rulesAt(applicationId, RULES + 1);
    expect(first.map(({ description }) => description).slice(0, 2)).toEqual(['change 0', '']);
    expect(first[0]?.filters).toEqual(latest[0]?.filters);
    expect((await store.rulesAt(applicationId, 1)).map(({ id }) => id)).toEqual(ids.slice(0, 1));

    const cache = new RuleSetCache(store, pubsub);
    const matcher = await cache.matcherFor(applicationId, RULES + CHANGES);
    expect(matcher.ruleIds).toEqual(ids);
  });
});
