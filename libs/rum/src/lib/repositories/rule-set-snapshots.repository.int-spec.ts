import { RumTestDatabase } from '../../../test/rum-test-database';
import { SnapshotRule } from '../rule.types';
import { rumTable } from '@acme/rum-schema';
import { RuleSetSnapshotsRepository } from './rule-set-snapshots.repository';
import { RulesRepository } from './rules.repository';

const filters = [[{ key: 'error.message', oper: 'CONTAINS' as const, vals: ['boom'] }]];
const alice = { id: 1, name: 'alice' };

describe('RuleSetSnapshotsRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let snapshots: RuleSetSnapshotsRepository;
  let rules: RulesRepository;
  let a: string;
  let b: string;
  const current = async (applicationId: string): Promise<SnapshotRule[]> =>
    (await rules.list(applicationId)).map(({ discardedCount: _live, ...rule }) => rule);
  const versionRows = (applicationId: string): Promise<{ rule_id: string; rule_version: number }[]> =>
    database.db.query(
      `SELECT "rule_id", "rule_version" FROM ${rumTable('rule_versions')} WHERE "application_id" = $1 ORDER BY 1, 2`,
      [applicationId],
    );
  let v1: SnapshotRule[];
  let v2: SnapshotRule[];
  let v3: SnapshotRule[];

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-snapshots');
    snapshots = new RuleSetSnapshotsRepository(database.db);
    rules = new RulesRepository(database.db);
    ({ applicationId: a } = await database.tenant('a'));
    ({ applicationId: b } = await database.tenant('b'));
    await rules.insert(a, 'r1', { name: 'rule r1', description: '', filters });
    await snapshots.record(a, 1, alice);
    v1 = await current(a);
    await rules.insert(a, 'r2', { name: 'rule r2', description: 'two', filters });
    await snapshots.record(a, 2, alice);
    v2 = await current(a);
    await rules.setStatus(a, 'r1', 'disabled');
    await snapshots.record(a, 3, alice);
    v3 = await current(a);
    await rules.delete(a, 'r2');
    await snapshots.record(a, 4, alice);
    await rules.insert(b, 'other', { name: 'rule other', description: '', filters });
    await snapshots.record(b, 1, { id: 2, name: 'bob' });
  }, 60000);
  afterAll(() => database?.stop());

  it('reads every version back as the rules were, in creation order', async () => {
    expect(await snapshots.rulesAt(a, 1)).toEqual(v1);
    expect(await snapshots.rulesAt(a, 2)).toEqual(v2);
    expect(await snapshots.rulesAt(a, 3)).toEqual(v3);
    expect((await snapshots.rulesAt(a, 3))?.map(({ status }) => status)).toEqual(['disabled', 'enabled']);
    expect(await snapshots.rulesAt(a, 4)).toEqual(v3.slice(0, 1));
  });

  it('stores a rule version only when its rule changed; snapshots hold references', async () => {
    expect(await versionRows(a)).toEqual([
      { rule_id: 'r1', rule_version: 1 },
      { rule_id: 'r1', rule_version: 2 },
      { rule_id: 'r2', rule_version: 1 },
    ]);
    const refs = await database.db.query(
      `SELECT "version", "rule_ids", "rule_versions" FROM ${rumTable('rule_set_snapshots')} WHERE "application_id" = $1 ORDER BY 1`,
      [a],
    );
    expect(refs).toEqual([
      { version: 1, rule_ids: ['r1'], rule_versions: [1] },
      { version: 2, rule_ids: ['r1', 'r2'], rule_versions: [1, 1] },
      { version: 3, rule_ids: ['r1', 'r2'], rule_versions: [2, 1] },
      { version: 4, rule_ids: ['r1'], rule_versions: [2] },
    ]);
  });

  it('records an empty rule set as an empty snapshot, not a missing one', async () => {
    const { applicationId: empty } = await database.tenant('empty');
    await snapshots.record(empty, 1, alice);
    expect(await snapshots.rulesAt(empty, 1)).toEqual([]);
    expect(await snapshots.rulesAt(empty, 2)).toBeUndefined();
  });

  it('never answers another application’s version', async () => {
    expect(await snapshots.rulesAt(b, 2)).toBeUndefined();
    expect((await snapshots.rulesAt(b, 1))?.map(({ id }) => id)).toEqual(['other']);
    expect(await snapshots.rulesAt('no-such-app', 1)).toBeUndefined();
    expect(await versionRows(b)).toEqual([{ rule_id: 'other', rule_version: 1 }]);
  });

  it('counts and pages one application’s history in either order', async () => {
    expect(await snapshots.count(a)).toBe(4);
    expect(await snapshots.count(b)).toBe(1);
    const newest = await snapshots.list(a, { orderBy: 'version', asc: false, offset: 0, limit: 2 });
    expect(newest).toEqual([
      { version: 4, rules: v3.slice(0, 1), updatedBy: 1, updatedByName: 'alice', updatedAt: expect.any(Date) },
      { version: 3, rules: v3, updatedBy: 1, updatedByName: 'alice', updatedAt: expect.any(Date) },
    ]);
    expect(
      (await snapshots.list(a, { orderBy: 'updatedAt', asc: true, offset: 1, limit: 2 })).map(({ version }) => version),
    ).toEqual([2, 3]);
    expect(
      (await snapshots.list(b, { orderBy: 'version', asc: true, offset: 0, limit: 10 })).map(
        ({ updatedByName }) => updatedByName,
      ),
    ).toEqual(['bob']);
  });
});
