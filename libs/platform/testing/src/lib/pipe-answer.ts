import { AppError, AppValidationPipe } from '@acme/platform-errors';

const pipe = new AppValidationPipe();

/**
 * What the global pipe answers for a body: the instance's fields (and whether it is a `Dto`), or the refusal's
 * code, message and details. Specs of `@AcceptWhen` DTOs compare it with the decorators alone (a subclass).
 */
export async function pipeAnswer(metatype: new () => object, value: unknown, Dto = metatype): Promise<unknown> {
  try {
    const dto = await pipe.transform(value, { type: 'body', metatype });
    return { instance: dto instanceof Dto, fields: JSON.parse(JSON.stringify(dto)) as unknown };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
}
