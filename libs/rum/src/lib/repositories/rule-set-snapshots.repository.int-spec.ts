import { RumTestDatabase } from '../../../test/rum-test-database';
import { SnapshotRule } from '../rule.types';
import { rumTable } from '@acme/rum-schema';
import { RuleSetSnapshotsRepository } from './rule-set-snapshots.repository';

const rule = (id: string): SnapshotRule => ({
  id,
  name: `rule ${id}`,
  description: '',
  filters: [[{ key: 'error.message', oper: 'CONTAINS', vals: ['boom'] }]],
  status: 'enabled',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  updatedAt: new Date('2026-01-03T03:04:05.000Z'),
});

describe('RuleSetSnapshotsRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let snapshots: RuleSetSnapshotsRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-snapshots');
    snapshots = new RuleSetSnapshotsRepository(database.db);
    ({ applicationId: a } = await database.tenant('a'));
    ({ applicationId: b } = await database.tenant('b'));
    await snapshots.insert(a, 1, [rule('r1')], { id: 1, name: 'alice' });
    await snapshots.insert(a, 2, [rule('r1'), rule('r2')], { id: 1, name: 'alice' });
    await snapshots.insert(b, 1, [rule('other')], { id: 2, name: 'bob' });
  }, 60000);
  afterAll(() => database?.stop());

  it('stores the domain shape and reads the same rules back', async () => {
    expect(await snapshots.rulesAt(a, 2)).toEqual([rule('r1'), rule('r2')]);
    const [{ rules }] = await database.db.query(
      `SELECT "rules" FROM ${rumTable('rule_set_snapshots')} WHERE "application_id" = $1 AND "version" = 1`,
      [a],
    );
    expect(rules).toEqual([
      { ...rule('r1'), createdAt: '2026-01-02T03:04:05.678Z', updatedAt: '2026-01-03T03:04:05.000Z' },
    ]);
  });

  it('never answers another application’s version', async () => {
    expect(await snapshots.rulesAt(b, 2)).toBeUndefined();
    expect(await snapshots.rulesAt(b, 1)).toEqual([rule('other')]);
    expect(await snapshots.rulesAt('no-such-app', 1)).toBeUndefined();
  });

  it('counts and pages one application’s history in either order', async () => {
    expect(await snapshots.count(a)).toBe(2);
    expect(await snapshots.count(b)).toBe(1);
    const newest = await snapshots.list(a, { orderBy: 'version', asc: false, offset: 0, limit: 1 });
    expect(newest).toEqual([
      {
        version: 2,
        rules: [rule('r1'), rule('r2')],
        updatedBy: 1,
        updatedByName: 'alice',
        updatedAt: expect.any(Date),
      },
    ]);
    expect(
      (await snapshots.list(a, { orderBy: 'updatedAt', asc: true, offset: 0, limit: 10 })).map(
        ({ version }) => version,
      ),
    ).toEqual([1, 2]);
    expect(
      (await snapshots.list(b, { orderBy: 'version', asc: true, offset: 0, limit: 10 })).map(
        ({ updatedByName }) => updatedByName,
      ),
    ).toEqual(['bob']);
  });
});
