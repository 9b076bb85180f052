import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, ValidateNested } from 'class-validator';
import { AppError } from './app-error';
import { AcceptWhen, AppValidationPipe, hasExactlyKeys } from './validation';

class Inner {
  @IsInt()
  @Max(10)
  readonly limit!: number;
}

class Body {
  @IsString()
  @MaxLength(5)
  readonly name!: string;

  @ValidateNested()
  @Type(() => Inner)
  readonly inner!: Inner;
}

const pipe = new AppValidationPipe();

async function failure(value: unknown, type: 'body' | 'query' | 'param'): Promise<AppError> {
  try {
    await pipe.transform(value, { type, metatype: Body });
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a validation failure');
}

describe('AppValidationPipe', () => {
  it('returns a DTO instance for a valid payload', async () => {
    const value = await pipe.transform({ name: 'ok', inner: { limit: 3 } }, { type: 'body', metatype: Body });
    expect(value).toBeInstanceOf(Body);
  });

  it('rejects unknown properties', async () => {
    const error = await failure({ name: 'ok', inner: { limit: 1 }, extra: true }, 'body');
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('property extra should not exist');
  });

  it('reports nested paths and where the failure was found', async () => {
    const error = await failure({ name: 'toolong', inner: { limit: 11 } }, 'query');
    expect(error.kind).toBe('validation');
    expect(error.details).toMatchObject({
      location: 'query',
      issues: [
        { property: 'name', constraints: ['name must be shorter than or equal to 5 characters'] },
        { property: 'inner.limit', constraints: ['limit must not be greater than 10'] },
      ],
    });
  });

  it("takes a payload its DTO's plain check accepts as sent, and validates any other one as before", async () => {
    const checked: unknown[] = [];
    @AcceptWhen((value) => {
      checked.push(value);
      return hasExactlyKeys(value, ['name']) && value['name'] === 'ok';
    })
    class Named {
      @IsString()
      @MaxLength(5)
      readonly name!: string;
    }
    const accepted = await pipe.transform({ name: 'ok' }, { type: 'body', metatype: Named });
    expect(accepted).toBeInstanceOf(Named);
    expect(accepted).toEqual({ name: 'ok' });
    await expect(pipe.transform({ name: 'toolong' }, { type: 'body', metatype: Named })).rejects.toMatchObject({
      message: 'name must be shorter than or equal to 5 characters',
    });
    await expect(pipe.transform({ name: 'ok', extra: 1 }, { type: 'body', metatype: Named })).rejects.toMatchObject({
      message: 'property extra should not exist',
    });
    expect(await pipe.transform({ name: 'fine' }, { type: 'body', metatype: Named })).toBeInstanceOf(Named);
    expect(checked).toHaveLength(4);
  });

  it('refuses keys named like what every object has, as any unknown property', async () => {
    class Named {
      @IsString()
      readonly name!: string;
    }
    for (const key of ['constructor', 'hasOwnProperty', 'prototype', 'toString', '__proto__']) {
      const value = JSON.parse(`{"name":"ok","${key}":"1"}`) as object;
      await expect(pipe.transform(value, { type: 'query', metatype: Named })).rejects.toMatchObject({
        message: `property ${key} should not exist`,
        details: { location: 'query' },
      });
    }
  });

  it('tells plain objects with exactly the given keys', () => {
    expect(hasExactlyKeys({ b: 1, a: 2 }, ['a', 'b'])).toBe(true);
    for (const value of [{ a: 1 }, { a: 1, b: 2, c: 3 }, [1, 2], null, 'ab', Object.create({ a: 1, b: 2 })])
      expect(hasExactlyKeys(value, ['a', 'b'])).toBe(false);
  });
});
