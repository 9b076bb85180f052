import { Client } from 'pg';
import { TestApp } from '@acme/platform-testing';
import { DAY_MS, eventPartitionName, utcDay } from '@acme/rum';
import { startRum } from './support/rum-client';

jest.setTimeout(120_000);

/** The app keeps error_events partitions itself: a pass at start (awaited), the gauge on /metrics. */
describe('error_events partition maintenance in the app', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startRum({ RUM_EVENT_PARTITIONS_AHEAD_DAYS: '5' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('has the partitions of yesterday to today + RUM_EVENT_PARTITIONS_AHEAD_DAYS when it starts listening', async () => {
    const client = new Client({ connectionString: app.database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT c."relname" FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid" WHERE i."inhparent" = 'rum.error_events'::regclass`,
      );
      const today = utcDay(new Date()).getTime();
      const expected = [-1, 0, 1, 2, 3, 4, 5].map((offset) => eventPartitionName(new Date(today + offset * DAY_MS)));
      expect(rows.map((row) => row.relname)).toEqual(expect.arrayContaining(['error_events_default', ...expected]));
    } finally {
      await client.end();
    }
  });

  it('reports the default partition rows on /metrics', async () => {
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/^rum_error_events_default_partition_rows 0$/m);
  });
});
