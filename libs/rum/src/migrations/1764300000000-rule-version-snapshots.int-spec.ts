import { runMigrationsUnderLock } from '@acme/platform-persistence';
import { RumTestDatabase } from '../../test/rum-test-database';
import { RuleSetSnapshotsRepository } from '../lib/repositories/rule-set-snapshots.repository';
import { RulesRepository } from '../lib/repositories/rules.repository';
import { RUM_SCHEMA, rumTable } from '@acme/rum-schema';
import { RUM_MIGRATIONS } from '.';

const SNAPSHOTS = rumTable('rule_set_snapshots');
const filters = [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]];

/** Snapshot rules as 1764200000000 left them: the domain shape, ISO timestamps with milliseconds. */
const stored = (id: string, status: string, updatedAt: string) => ({
  id,
  name: `rule ${id}`,
  description: id === 'r2' ? 'two' : '',
  filters,
  status,
  createdAt: '2026-11-01T10:00:00.123Z',
  updatedAt,
});
const R1 = stored('r1', 'enabled', '2026-11-01T10:00:00.123Z');
const R1_DISABLED = stored('r1', 'disabled', '2026-11-02T11:00:00.456Z');
const R2 = stored('r2', 'enabled', '2026-11-01T12:00:00.789Z');
const X = stored('x', 'enabled', '2026-11-03T09:00:00.000Z');

const domain = (rule: ReturnType<typeof stored>) => ({
  ...rule,
  createdAt: new Date(rule.createdAt),
  updatedAt: new Date(rule.updatedAt),
});

describe('migration 1764300000000: snapshots reference rule versions (real Postgres)', () => {
  let database: RumTestDatabase;
  let a: string;
  let b: string;
  const snapshotRows = () =>
    database.db.query(`SELECT * FROM ${SNAPSHOTS} ORDER BY "application_id" = $1 DESC, "version"`, [a]);
  const refs = () =>
    database.db.query(
      `SELECT "application_id", "version", "rule_ids", "rule_versions" FROM ${SNAPSHOTS} ORDER BY "application_id" = $1 DESC, "version"`,
      [a],
    );
  let original: unknown[];

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-rule-versions', RUM_MIGRATIONS.slice(0, 4));
    ({ applicationId: a } = await database.tenant('a'));
    ({ applicationId: b } = await database.tenant('b'));
    const insert = (applicationId: string, version: number, rules: unknown[]) =>
      database.db.query(
        `INSERT INTO ${SNAPSHOTS} ("application_id", "version", "rules", "updated_by", "updated_by_name") VALUES ($1, $2, $3::jsonb, 1, 'x')`,
        [applicationId, version, JSON.stringify(rules)],
      );
    await insert(a, 1, [R1]);
    await insert(a, 2, [R1, R2]);
    await insert(a, 3, [R1_DISABLED, R2]);
    await insert(a, 4, [R1_DISABLED]);
    await insert(b, 1, [X]);
    await insert(b, 2, []);
    // The live rule as the newest snapshot shows it (microseconds, which snapshots never kept).
    await database.db.query(
      `INSERT INTO ${rumTable('rules')} ("id", "application_id", "rule_name", "description", "filters", "status", "created_at", "updated_at")
       VALUES ('r1', $1, 'rule r1', '', $2::jsonb, 'disabled', '2026-11-01T10:00:00.123456Z', '2026-11-02T11:00:00.456789Z')`,
      [a, JSON.stringify(filters)],
    );
    original = await snapshotRows();
  }, 60000);
  afterAll(() => database?.stop());

  it('stores each rule version once and turns snapshots into references, losing nothing history shows', async () => {
    await database.reconnect(RUM_MIGRATIONS);
    const migrated = await database.db.runMigrations({ transaction: 'each' });
    expect(migrated.map(({ name }) => name)).toEqual(['RuleVersionSnapshots1764300000000']);

    expect(
      await database.db.query(
        `SELECT "application_id" = $1 AS "a", "rule_id", "rule_version", "status" FROM ${rumTable('rule_versions')} ORDER BY 1 DESC, 2, 3`,
        [a],
      ),
    ).toEqual([
      { a: true, rule_id: 'r1', rule_version: 1, status: 'enabled' },
      { a: true, rule_id: 'r1', rule_version: 2, status: 'disabled' },
      { a: true, rule_id: 'r2', rule_version: 1, status: 'enabled' },
      { a: false, rule_id: 'x', rule_version: 1, status: 'enabled' },
    ]);
    expect(await refs()).toEqual([
      { application_id: a, version: 1, rule_ids: ['r1'], rule_versions: [1] },
      { application_id: a, version: 2, rule_ids: ['r1', 'r2'], rule_versions: [1, 1] },
      { application_id: a, version: 3, rule_ids: ['r1', 'r2'], rule_versions: [2, 1] },
      { application_id: a, version: 4, rule_ids: ['r1'], rule_versions: [2] },
      { application_id: b, version: 1, rule_ids: ['x'], rule_versions: [1] },
      { application_id: b, version: 2, rule_ids: [], rule_versions: [] },
    ]);

    const snapshots = new RuleSetSnapshotsRepository(database.db);
    expect(await snapshots.rulesAt(a, 2)).toEqual([R1, R2].map(domain));
    expect(await snapshots.rulesAt(a, 3)).toEqual([R1_DISABLED, R2].map(domain));
    expect(await snapshots.rulesAt(b, 2)).toEqual([]);
    const [live] = await database.db.query(`SELECT "rule_version" FROM ${rumTable('rules')} WHERE "id" = 'r1'`);
    expect(live).toEqual({ rule_version: 2 });
  });

  it('restores the jsonb snapshots on down, and converts forward again', async () => {
    const migrated = await refs();
    await database.db.undoLastMigration({ transaction: 'each' });
    expect(await snapshotRows()).toEqual(original);
    expect(await runMigrationsUnderLock(database.db, RUM_SCHEMA)).toEqual(['RuleVersionSnapshots1764300000000']);
    expect(await refs()).toEqual(migrated);
  });

  it('lets the next change continue the live rule’s versions', async () => {
    const rules = new RulesRepository(database.db);
    const snapshots = new RuleSetSnapshotsRepository(database.db);
    const enabled = await rules.setStatus(a, 'r1', 'enabled');
    await snapshots.record(a, 5, { id: 1, name: 'alice' });
    expect((await refs())[4]).toEqual({ application_id: a, version: 5, rule_ids: ['r1'], rule_versions: [3] });
    expect(await snapshots.rulesAt(a, 5)).toEqual([
      { ...domain(R1), updatedAt: enabled?.updatedAt, createdAt: enabled?.createdAt },
    ]);
    expect(await snapshots.rulesAt(a, 4)).toEqual([R1_DISABLED].map(domain));
  });
});
