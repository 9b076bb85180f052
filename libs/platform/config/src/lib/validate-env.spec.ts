import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsInt, IsOptional, IsString, Matches, Min, MinLength } from 'class-validator';
import { Transform } from 'class-transformer';
import { BaseEnv } from './base-env';
import { DevelopmentDefault, Secret } from './env-decorators';
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

class GuardedEnv extends BaseEnv {
  @IsString()
  @DevelopmentDefault()
  SIGNING_SECRET = 'dev-only-signing-secret';
}
class GuardedChildEnv extends GuardedEnv {
  @IsString()
  @DevelopmentDefault()
  SEAL_KEY = 'dev-only-seal-key';
}

describe('development defaults under NODE_ENV=production', () => {
  const validateGuarded = createEnvValidator(GuardedChildEnv);
  const message = (env: Record<string, string>) => {
    try {
      validateGuarded(env);
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      return (error as Error).message;
    }
  };

  it('keeps the development defaults outside production', () => {
    expect(validateGuarded({ NODE_ENV: 'development' })).toMatchObject({
      SIGNING_SECRET: 'dev-only-signing-secret',
      SEAL_KEY: 'dev-only-seal-key',
    });
    expect(validateGuarded({})).toMatchObject({ SIGNING_SECRET: 'dev-only-signing-secret' });
  });

  it('refuses each one left unset, naming it, base classes included', () => {
    const text = message({ NODE_ENV: 'production' });
    expect(text).toContain('SIGNING_SECRET: must be set');
    expect(text).toContain('SEAL_KEY: must be set');
  });

  it('refuses one set to its development value', () => {
    const text = message({
      NODE_ENV: 'production',
      SIGNING_SECRET: 'dev-only-signing-secret',
      SEAL_KEY: 'real-seal-key',
    });
    expect(text).toContain('SIGNING_SECRET: must be set');
    expect(text).not.toContain('SEAL_KEY');
  });

  it('starts with values of its own', () => {
    expect(
      validateGuarded({ NODE_ENV: 'production', SIGNING_SECRET: 'a-real-secret', SEAL_KEY: 'a-real-seal-key' }),
    ).toMatchObject({ SIGNING_SECRET: 'a-real-secret' });
  });
});

describe('<NAME>_FILE variables (secrets mounted as files)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'env-file-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secretFile = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads the variable from the file, without its trailing line break', () => {
    const env = validate({
      ADMIN_TOKEN_FILE: secretFile('admin', 'from-a-mounted-secret-0123\n'),
      DATABASE_URL_FILE: secretFile('db', 'postgres://app:s3cret@db.internal:5432/app\r\n'),
    });
    expect(env.ADMIN_TOKEN).toBe('from-a-mounted-secret-0123');
    expect(env.DATABASE_URL).toBe('postgres://app:s3cret@db.internal:5432/app');
  });

  it('counts as given for production, and validates the content without quoting it', () => {
    const env = createEnvValidator(ProductionEnv)({
      NODE_ENV: 'production',
      SEAL_KEY_FILE: secretFile('seal', 'a-production-seal-key'),
    });
    expect(env.SEAL_KEY).toBe('a-production-seal-key');
    const problems = rejected({ ADMIN_TOKEN_FILE: secretFile('short', 'tiny-secret') });
    expect(problems).toEqual([
      'ADMIN_TOKEN: ADMIN_TOKEN must be at least 16 characters (got the content of ADMIN_TOKEN_FILE)',
    ]);
    expect(problems.join('\n')).not.toContain('tiny-secret');
  });

  it('refuses both forms at once and an unreadable file, naming the variable', () => {
    expect(rejected({ ADMIN_TOKEN: 'x'.repeat(20), ADMIN_TOKEN_FILE: secretFile('both', 'y'.repeat(20)) })).toEqual([
      'ADMIN_TOKEN: give either ADMIN_TOKEN or ADMIN_TOKEN_FILE, not both',
    ]);
    expect(rejected({ ADMIN_TOKEN_FILE: join(dir, 'missing') })).toEqual([
      `ADMIN_TOKEN_FILE: cannot read ${JSON.stringify(join(dir, 'missing'))} (ENOENT)`,
    ]);
  });
});

class ProductionEnv extends BaseEnv {
  @IsString()
  @DevelopmentDefault()
  SEAL_KEY = 'development-seal-key';
}

function rejected(source: Record<string, string>): string[] {
  try {
    validate(source);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return error.problems;
    throw error;
  }
  throw new Error('accepted');
}

class SecretsEnv extends BaseEnv {
  @IsString()
  @MinLength(32)
  SIGNING_SECRET = 'dev-only-signing-secret-0123456789-abcdef';

  @IsString()
  @MinLength(40)
  @Secret()
  UNUSUALLY_NAMED = 'x'.repeat(40);

  @IsString()
  @Matches(/^https:/, { message: '$property must be https (got $value)' })
  @IsOptional()
  WEBHOOK_CREDENTIAL_URL?: string;
}

describe('env validation never prints a secret value', () => {
  const validateSecrets = createEnvValidator(SecretsEnv);
  const message = (env: Record<string, string>) => {
    try {
      validateSecrets(env);
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      return (error as Error).message;
    }
  };

  it.each([
    ['ADMIN_TOKEN', 'short-admin'],
    ['SIGNING_SECRET', 'one-char-short-signing-secret'],
    ['UNUSUALLY_NAMED', 'marked-secret-value'],
    ['WEBHOOK_CREDENTIAL_URL', 'http://hook.example/credential-in-path'],
  ])('reports a bad %s by name and reason, never its value', (name, value) => {
    const text = message({ [name]: value });
    expect(text).toContain(`${name}: `);
    expect(text).toContain('value is not shown');
    expect(text).not.toContain(value);
  });

  it.each([
    ['DATABASE_URL', 'mysql://app:hunter2-db-password@db.internal:3306/app', 'hunter2-db-password'],
    ['DATABASE_READ_URLS', 'postgres://r:replica-pass@r1/db,mysql://r:other/pass@r2/db', 'replica-pass'],
    ['REDIS_URL', 'http://:redis-pass@cache', 'redis-pass'],
  ])('reports a bad %s without the password it holds', (name, value, password) => {
    const text = message({ [name]: value });
    expect(text).toContain(`${name}: `);
    expect(text).toContain('***@');
    expect(text).not.toContain(password);
    expect(text).not.toContain('other/pass');
  });

  it('still shows the value of a variable that is no secret', () => {
    expect(message({ LOG_LEVEL: 'loud' })).toContain('(got "loud")');
  });

  it('never shows a short ADMIN_TOKEN, whatever it holds (property)', () => {
    // A mark the message never holds, so finding the value means it was printed.
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), (tail) => {
        const value = `§${tail}`;
        expect(message({ ADMIN_TOKEN: value })).not.toContain(value);
      }),
    );
  });
});
