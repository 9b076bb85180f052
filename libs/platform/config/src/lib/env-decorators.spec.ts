import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { booleanFromEnv, EnvBool, EnvInt } from './env-decorators';
import { createEnvValidator } from './validate-env';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/** The decorator stacks the composites replace, written out. */
class Written {
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  BOUNDED = 10;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  AT_LEAST = 5;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @IsOptional()
  OPTIONAL?: number;

  @Transform(booleanFromEnv)
  @IsBoolean()
  FLAG = false;
}

class Composite {
  @EnvInt({ min: 1, max: 100 })
  BOUNDED = 10;

  @EnvInt({ min: 0 })
  AT_LEAST = 5;

  @EnvInt({ min: 1, optional: true })
  OPTIONAL?: number;

  @EnvBool()
  FLAG = false;
}

const outcome = (validate: (raw: Record<string, unknown>) => object, raw: Record<string, unknown>) => {
  try {
    return { env: { ...validate(raw) } };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe('EnvInt / EnvBool', () => {
  const composite = createEnvValidator(Composite);
  const written = createEnvValidator(Written);

  it('keep defaults for missing and empty variables and coerce strings', () => {
    expect({ ...composite({ BOUNDED: '' }) }).toEqual({ BOUNDED: 10, AT_LEAST: 5, FLAG: false });
    expect({ ...composite({ BOUNDED: '42', AT_LEAST: '0', OPTIONAL: '3', FLAG: '1' }) }).toEqual({
      BOUNDED: 42,
      AT_LEAST: 0,
      OPTIONAL: 3,
      FLAG: true,
    });
    expect(composite({ FLAG: 'false' }).FLAG).toBe(false);
    expect(composite({ FLAG: 'true' }).FLAG).toBe(true);
  });

  it.each([
    ['BOUNDED', 'abc'],
    ['BOUNDED', '0'],
    ['BOUNDED', '101'],
    ['BOUNDED', '1.5'],
    ['AT_LEAST', '-1'],
    ['OPTIONAL', '0'],
    ['FLAG', 'maybe'],
  ])('reject a bad %s (%s) naming it', (name, value) => {
    expect(() => composite({ [name]: value })).toThrow(`${name}: `);
  });

  it('behave exactly like the written-out stacks (values and error messages, in order)', () => {
    const values = [
      '',
      'abc',
      '-1',
      '0',
      '1',
      '1.5',
      '100',
      '101',
      '1e3',
      ' 7 ',
      '0x10',
      'true',
      'false',
      'maybe',
      'null',
    ];
    for (const name of ['BOUNDED', 'AT_LEAST', 'OPTIONAL', 'FLAG']) {
      for (const value of values)
        expect(outcome(composite, { [name]: value })).toEqual(outcome(written, { [name]: value }));
    }
  });
});
