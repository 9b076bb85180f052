/**
 * One pass of rum.error_events partition maintenance, for cron or by hand (the app also runs it hourly):
 *
 *   DATABASE_URL=postgres://… node -r @swc-node/register tools/scripts/rum-event-partitions.ts
 *
 * Reads RUM_EVENT_RETENTION_DAYS and RUM_EVENT_PARTITIONS_AHEAD_DAYS as the app does. Safe beside running
 * instances: a pass that finds the advisory lock taken skips. Prints the outcome as JSON; exits 1 on failure.
 */
import { Client } from 'pg';
import { createEnvValidator, EventPartitionsEnv } from '@acme/platform-config';
import { maintainEventPartitions } from '@acme/rum';

async function main(): Promise<void> {
  const env = createEnvValidator(EventPartitionsEnv)(process.env);
  const client = new Client({ connectionString: env.DATABASE_URL, application_name: 'rum-event-partitions' });
  await client.connect();
  try {
    await client.query('BEGIN');
    const sql = async (text: string, params?: unknown[]) => (await client.query(text, params)).rows;
    const result = await maintainEventPartitions(sql, {
      retentionDays: env.RUM_EVENT_RETENTION_DAYS,
      aheadDays: env.RUM_EVENT_PARTITIONS_AHEAD_DAYS,
    });
    await client.query('COMMIT');
    console.log(JSON.stringify(result));
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

main().catch((error: Error) => {
  console.error(`rum-event-partitions: ${error.message}`);
  process.exit(1);
});
