import { IsIn, IsOptional } from 'class-validator';
import { AppError } from './app-error';
import { ReportsFirstProblem, SatisfiesNested } from './first-problem';
import { AppValidationPipe } from './validation';
import { MaxCodePoints, Satisfies } from './validators';

@ReportsFirstProblem({ unknownKey: (key) => `${key} is not allowed`, notAnObject: 'The body must be a JSON object' })
class Sample {
  @Satisfies('name', (value) => (value === undefined ? 'name is required' : undefined)) readonly name: string;
  @IsOptional() @IsIn(['a', 'b'], { message: 'kind must be a or b' }) readonly kind?: string;
  @SatisfiesNested('point', (value) =>
    value !== undefined && typeof (value as { x?: unknown }).x !== 'number'
      ? { field: 'point.x', message: 'point.x must be a number' }
      : undefined,
  )
  readonly point?: { x: number };
  @IsOptional() @MaxCodePoints(3, { message: 'note is too long' }) readonly note?: unknown;
  readonly documentedOnly?: string;
}

@ReportsFirstProblem({ unknownKey: (key) => `${key} is unknown`, absentIsEmpty: true })
class Optional {
  @IsOptional() @IsIn(['x']) readonly only?: string;
}

const pipe = new AppValidationPipe();
const body = (Dto: new () => object, value: unknown) => pipe.transform(value, { type: 'body', metatype: Dto });
async function problem(Dto: new () => object, value: unknown): Promise<unknown> {
  try {
    await body(Dto, value);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('accepted');
}

describe('ReportsFirstProblem', () => {
  it('answers an unknown key first, as sent (__proto__ too), naming the DTO', async () => {
    expect(await problem(Sample, JSON.parse('{"kind":"z","__proto__":1}'))).toEqual({
      code: 'VALIDATION_FAILED',
      message: '__proto__ is not allowed',
      details: {
        location: 'body',
        field: '__proto__',
        issues: [{ property: '__proto__', constraints: ['__proto__ is not allowed'] }],
        dto: 'Sample',
      },
    });
    expect(await problem(Sample, { name: 'n', documentedOnly: 'x' })).toMatchObject({
      message: 'documentedOnly is not allowed',
    });
  });

  it('then the first failing property in declaration order, with a nested rule naming its own field', async () => {
    expect(await problem(Sample, { kind: 'z', point: {} })).toMatchObject({
      message: 'name is required',
      details: { field: 'name' },
    });
    expect(await problem(Sample, { name: 'n', note: 'long', point: { x: 'no' } })).toMatchObject({
      message: 'point.x must be a number',
      details: { field: 'point.x' },
    });
  });

  it('refuses a value that is not an object without a field; an absent optional body is {}', async () => {
    expect(await problem(Sample, [])).toMatchObject({
      message: 'The body must be a JSON object',
      details: { location: 'body', issues: [] },
    });
    expect(await body(Optional, undefined)).toBeInstanceOf(Optional);
  });

  it('validates the value as sent: the DTO holds exactly the keys sent, nothing copied or stripped', async () => {
    const sent = { name: 'n', point: JSON.parse('{"x":1,"__proto__":{"y":2}}') };
    const dto = (await body(Sample, sent)) as Sample;
    expect(dto).toBeInstanceOf(Sample);
    expect(Object.keys(dto)).toEqual(['name', 'point']);
    expect(dto.point).toBe(sent.point);
  });
});
