import { createEnvValidator } from '@acme/platform-config';
import { RumEnv } from './env';

describe('RumEnv', () => {
  const validate = createEnvValidator(RumEnv);

  it('defaults to the spec limits: create 20/s + 300/min, history 50/s + 1000/min, port 3003; events kept 30 days, partitions 3 days ahead', () => {
    expect(validate({})).toMatchObject({
      PORT: 3003,
      RUM_CREATE_LIMIT_PER_SECOND: 20,
      RUM_CREATE_LIMIT_PER_MINUTE: 300,
      RUM_HISTORY_LIMIT_PER_SECOND: 50,
      RUM_HISTORY_LIMIT_PER_MINUTE: 1000,
      RUM_EVENT_RETENTION_DAYS: 30,
      RUM_EVENT_PARTITIONS_AHEAD_DAYS: 3,
    });
  });

  it.each(['RUM_CREATE_LIMIT_PER_SECOND', 'RUM_HISTORY_LIMIT_PER_MINUTE'])('refuses a bad %s and names it', (name) => {
    expect(() => validate({ [name]: '0' })).toThrow(`${name}:`);
    expect(() => validate({ [name]: 'many' })).toThrow(`${name}:`);
  });

  it.each([
    ['RUM_EVENT_RETENTION_DAYS', '3650', '3651'],
    ['RUM_EVENT_PARTITIONS_AHEAD_DAYS', '60', '61'],
  ])('bounds %s to 1..%s', (name, max, over) => {
    expect(validate({ [name]: max })).toMatchObject({ [name]: Number(max) });
    expect(() => validate({ [name]: over })).toThrow(`${name}:`);
    expect(() => validate({ [name]: '0' })).toThrow(`${name}:`);
  });
});
