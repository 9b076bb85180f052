import fc from 'fast-check';
import { pipeAnswer } from '@acme/platform-testing';
import { VerifyEmailRequest } from './email-verification.request.dto';

/** The same DTO without its plain check: every payload goes through class-transformer and class-validator. */
class DecoratorsOnly extends VerifyEmailRequest {}

const answer = (metatype: new () => object, value: unknown) => pipeAnswer(metatype, value, VerifyEmailRequest);

describe('VerifyEmailRequest: the plain check changes no answer of the pipe', () => {
  const token = fc.oneof(
    fc.string({ minLength: 0, maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constantFrom(
      '',
      ' ',
      'a'.repeat(256),
      'a'.repeat(257),
      '\u{1F600}'.repeat(200),
      'a\uFE0F',
      '\uFE0F',
      'x\u0000y',
    ),
    fc.anything({ maxDepth: 1 }),
  );
  const body = fc.oneof(
    fc.record({ token }),
    fc.record({ token, other: fc.anything({ maxDepth: 1 }) }),
    fc.dictionary(fc.constantFrom('token', 'Token', 'other', 'constructor'), token),
    fc.anything({ maxDepth: 2 }),
  );

  it('answers any body as the decorators alone do', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        expect(await answer(VerifyEmailRequest, value)).toEqual(await answer(DecoratorsOnly, value));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes an issued token as sent', async () => {
    expect(await answer(VerifyEmailRequest, { token: 'abc123' })).toEqual({
      instance: true,
      fields: { token: 'abc123' },
    });
    // Its length is the domain's business (a token never issued), its type the pipe's.
    expect(await answer(VerifyEmailRequest, { token: 'x'.repeat(257) })).toMatchObject({ instance: true });
    expect(await answer(VerifyEmailRequest, { token: 7 })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await answer(VerifyEmailRequest, {})).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
