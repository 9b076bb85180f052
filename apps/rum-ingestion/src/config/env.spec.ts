import { createEnvValidator } from '@acme/platform-config';
import { RumEnv } from './env';

describe('RumEnv', () => {
  const validate = createEnvValidator(RumEnv);

  it('defaults to the spec limits: create 20/s + 300/min, history 50/s + 1000/min, port 3003', () => {
    expect(validate({})).toMatchObject({
      PORT: 3003,
      RUM_CREATE_LIMIT_PER_SECOND: 20,
      RUM_CREATE_LIMIT_PER_MINUTE: 300,
      RUM_HISTORY_LIMIT_PER_SECOND: 50,
      RUM_HISTORY_LIMIT_PER_MINUTE: 1000,
    });
  });

  it.each(['RUM_CREATE_LIMIT_PER_SECOND', 'RUM_HISTORY_LIMIT_PER_MINUTE'])('refuses a bad %s and names it', (name) => {
    expect(() => validate({ [name]: '0' })).toThrow(`${name}:`);
    expect(() => validate({ [name]: 'many' })).toThrow(`${name}:`);
  });
});
