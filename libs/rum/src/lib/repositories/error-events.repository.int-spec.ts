import { RumTestDatabase } from '../../../test/rum-test-database';
import { ErrorEventsRepository } from './error-events.repository';

describe('ErrorEventsRepository (real Postgres)', () => {
  let database: RumTestDatabase;
  let events: ErrorEventsRepository;
  const at = Date.UTC(2026, 0, 2, 12);

  beforeAll(async () => {
    database = await RumTestDatabase.start('rum-error-events');
    events = new ErrorEventsRepository(database.db);
  }, 60000);
  afterAll(() => database?.stop());

  it('stores a batch as sent (unstorable text replaced) and reads one application’s range newest first', async () => {
    await events.insertBatch('app-a', [
      { occurredAt: at, payload: { n: 1, text: 'nul\u0000here' } },
      { occurredAt: at + 1000, payload: { n: 2 } },
    ]);
    await events.insertBatch('app-b', [{ occurredAt: at + 500, payload: { n: 3 } }]);
    await events.insertBatch('app-a', []);
    const range = [new Date(at), new Date(at + 60_000)] as const;
    expect(await events.between('app-a', ...range, 10)).toEqual([{ n: 2 }, { n: 1, text: 'nul\ufffdhere' }]);
    expect(await events.between('app-b', ...range, 10)).toEqual([{ n: 3 }]);
    expect(await events.between('app-a', ...range, 1)).toEqual([{ n: 2 }]);
    expect(await events.between('app-a', new Date(at + 2000), new Date(at + 60_000), 10)).toEqual([]);
  });
});
