import { isUniqueViolation } from '@acme/platform-persistence';
import { RumTestDatabase } from '../../../test/rum-test-database';
import { Filters } from '../filters';
import { RULE_NAME_CONSTRAINT, RulesRepository } from './rules.repository';

const filters: Filters = [[{ key: 'error.error_type', oper: 'IN', vals: ['TypeError'] }]];
const fields = (name: string) => ({ name, description: `${name} rule`, filters });

describe('RulesRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let rules: RulesRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-rules');
    rules = new RulesRepository(database.db);
    ({ applicationId: a } = await database.tenant('a'));
    ({ applicationId: b } = await database.tenant('b'));
    await rules.insert(a, 'a1', fields('first'));
    await rules.insert(a, 'a2', fields('second'));
    await rules.insert(b, 'b1', fields('first'));
  }, 60000);
  afterAll(() => database?.stop());

  it('finds a rule of the application in the domain shape, never another application’s', async () => {
    expect(await rules.find(a, 'a1')).toEqual({
      id: 'a1',
      name: 'first',
      description: 'first rule',
      filters,
      status: 'enabled',
      discardedCount: 0,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await rules.find(a, 'b1')).toBeUndefined();
    expect(await rules.find(b, 'a1', { lock: true })).toBeUndefined();
  });

  it('checks names per application, with the unique constraint as backstop', async () => {
    expect(await rules.nameTaken(a, 'second')).toBe(true);
    expect(await rules.nameTaken(b, 'second')).toBe(false);
    const error = await rules.insert(a, 'a3', fields('first')).catch((thrown: unknown) => thrown);
    expect(isUniqueViolation(error, RULE_NAME_CONSTRAINT)).toBe(true);
  });

  it('counts and pages an application’s rules in creation order', async () => {
    expect(await rules.count(a)).toBe(2);
    expect(await rules.count(b)).toBe(1);
    expect((await rules.list(a)).map(({ id }) => id)).toEqual(['a1', 'a2']);
    expect((await rules.list(a, { offset: 1, limit: 5 })).map(({ id }) => id)).toEqual(['a2']);
    expect((await rules.list(b)).map(({ id }) => id)).toEqual(['b1']);
  });

  it('changes and deletes only a rule of the given application', async () => {
    expect(await rules.update(b, 'a1', fields('stolen'))).toBeUndefined();
    expect(await rules.setStatus(b, 'a1', 'disabled')).toBeUndefined();
    expect(await rules.delete(b, 'a1')).toBe(false);
    expect(await rules.find(a, 'a1')).toMatchObject({ name: 'first', status: 'enabled' });

    expect(await rules.update(a, 'a2', { ...fields('renamed'), description: 'new' })).toMatchObject({
      id: 'a2',
      name: 'renamed',
      description: 'new',
    });
    expect(await rules.setStatus(a, 'a2', 'disabled')).toMatchObject({ id: 'a2', status: 'disabled' });
    expect(await rules.delete(a, 'a2')).toBe(true);
    expect(await rules.find(a, 'a2')).toBeUndefined();
  });

  it('adds discard counts to the application’s rules and ignores ids of another application', async () => {
    await rules.addDiscarded(
      a,
      new Map([
        ['a1', 3],
        ['b1', 5],
      ]),
    );
    await rules.addDiscarded(a, new Map([['a1', 2]]));
    expect((await rules.find(a, 'a1'))?.discardedCount).toBe(5);
    expect((await rules.find(b, 'b1'))?.discardedCount).toBe(0);
  });
});
