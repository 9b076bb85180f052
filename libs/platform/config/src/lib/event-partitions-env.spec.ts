import { EventPartitionsEnv } from './event-partitions-env';
import { createEnvValidator } from './validate-env';

describe('EventPartitionsEnv (the partitions script reads it without the app)', () => {
  const validate = createEnvValidator(EventPartitionsEnv);

  it('keeps 30 days and creates 3 days ahead by default, with the database URL every service reads', () => {
    expect(validate({ DATABASE_URL: 'postgres://db/rum' })).toMatchObject({
      DATABASE_URL: 'postgres://db/rum',
      RUM_EVENT_RETENTION_DAYS: 30,
      RUM_EVENT_PARTITIONS_AHEAD_DAYS: 3,
    });
  });

  it('refuses a retention of 0 days and names the variable', () => {
    expect(() => validate({ RUM_EVENT_RETENTION_DAYS: '0' })).toThrow('RUM_EVENT_RETENTION_DAYS:');
  });
});
