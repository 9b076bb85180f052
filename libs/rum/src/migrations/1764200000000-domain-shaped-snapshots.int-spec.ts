import { runMigrationsUnderLock } from '@acme/platform-persistence';
import { RumTestDatabase } from '../../test/rum-test-database';
import { RUM_SCHEMA, rumTable } from '@acme/rum-schema';
import { RUM_MIGRATIONS } from '.';

const SNAPSHOTS = rumTable('rule_set_snapshots');
const filters = [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]];

/** Rules as they were stored before: the API's snake_case view, Unix seconds. */
const OLD_RULES = [
  {
    rule_id: 'r1',
    rule_name: 'first',
    description: 'one',
    filters,
    status: 'enabled',
    created_at: 1_764_000_000,
    updated_at: 1_764_000_100,
  },
  {
    rule_id: 'r2',
    rule_name: 'second',
    description: '',
    filters,
    status: 'disabled',
    created_at: 1_764_000_200,
    updated_at: 1_764_000_300,
  },
];

describe('migration 1764200000000: snapshots in the domain shape (real Postgres)', () => {
  let database: RumTestDatabase;
  let rows: () => Promise<{ application_id: string; version: number; rules: unknown }[]>;

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-snapshot-shape', RUM_MIGRATIONS.slice(0, 3));
    const a = await database.tenant('a');
    const b = await database.tenant('b');
    const insert = (applicationId: string, version: number, rules: unknown) =>
      database.db.query(
        `INSERT INTO ${SNAPSHOTS} ("application_id", "version", "rules", "updated_by", "updated_by_name") VALUES ($1, $2, $3::jsonb, 1, 'x')`,
        [applicationId, version, JSON.stringify(rules)],
      );
    await insert(a.applicationId, 1, OLD_RULES.slice(0, 1));
    await insert(a.applicationId, 2, OLD_RULES);
    await insert(a.applicationId, 3, []);
    await insert(b.applicationId, 1, OLD_RULES.slice(1));
    rows = () => database.db.query(`SELECT "application_id", "version", "rules" FROM ${SNAPSHOTS} ORDER BY "id"`);
  }, 60000);
  afterAll(() => database?.stop());

  it('rewrites every stored rule, in order, losing nothing the API shows', async () => {
    const before = await rows();
    await database.reconnect(RUM_MIGRATIONS.slice(0, 4));
    const migrated = await database.db.runMigrations({ transaction: 'each' });
    expect(migrated.map(({ name }) => name)).toEqual(['DomainShapedSnapshots1764200000000']);
    const after = await rows();
    expect(after.map(({ application_id, version }) => [application_id, version])).toEqual(
      before.map(({ application_id, version }) => [application_id, version]),
    );
    const all = after.flatMap(({ rules }) => rules as Record<string, unknown>[]);
    expect(all).toHaveLength(4);
    expect(all.every((rule) => !('rule_id' in rule) && 'id' in rule)).toBe(true);

    // The domain shape as the following migration (1764300000000) reads it: ISO text with milliseconds.
    expect(after[1]?.rules).toEqual(
      OLD_RULES.map((old) => ({
        id: old.rule_id,
        name: old.rule_name,
        description: old.description,
        filters: old.filters,
        status: old.status,
        createdAt: new Date(old.created_at * 1000).toISOString(),
        updatedAt: new Date(old.updated_at * 1000).toISOString(),
      })),
    );
    expect(after[2]?.rules).toEqual([]);
  });

  it('converts back on down, and forward again', async () => {
    const migrated = await rows();
    await database.db.undoLastMigration({ transaction: 'each' });
    const reverted = await rows();
    expect(reverted.map(({ rules }) => rules)).toEqual([OLD_RULES.slice(0, 1), OLD_RULES, [], OLD_RULES.slice(1)]);
    expect(await runMigrationsUnderLock(database.db, RUM_SCHEMA)).toEqual(['DomainShapedSnapshots1764200000000']);
    expect(await rows()).toEqual(migrated);
  });
});
