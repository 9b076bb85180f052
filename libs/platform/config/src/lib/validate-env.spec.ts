import { IsInt, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { BaseEnv } from './base-env';
import { createEnvValidator, InvalidEnvironmentError } from './validate-env';

class SampleEnv extends BaseEnv {
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  TOKEN_TTL_SECONDS = 60;
}

const validate = createEnvValidator(SampleEnv);

describe('createEnvValidator', () => {
  it('applies defaults for missing and empty variables', () => {
    const env = validate({ PUBLIC_URL: 'http://localhost:3001', TOKEN_TTL_SECONDS: '' });
    expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/postgres');
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(env.TOKEN_TTL_SECONDS).toBe(60);
    expect(env.MIGRATIONS_RUN).toBe(true);
  });

  it('coerces numbers and booleans from strings', () => {
    const env = validate({ PORT: '4000', MIGRATIONS_RUN: 'false', TOKEN_TTL_SECONDS: '30' });
    expect(env).toMatchObject({ PORT: 4000, MIGRATIONS_RUN: false, TOKEN_TTL_SECONDS: 30 });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_TOKEN', 'short'],
    ['MIGRATIONS_RUN', 'maybe'],
    ['TOKEN_TTL_SECONDS', '0'],
  ])('rejects a bad %s and names it', (name, value) => {
    let thrown: unknown;
    try {
      validate({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidEnvironmentError);
    expect((thrown as Error).message).toContain(`${name}:`);
  });
});
