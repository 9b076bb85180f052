import fc from 'fast-check';
import { AppError, findTextProblem } from '@acme/platform-errors';
import { pipeAnswer } from '@acme/platform-testing';
import { unstorableText } from '@acme/platform-http';
import { ImportDocumentsRequest } from './admin.request.dto';

/** The same DTO without its plain check: every payload goes through class-transformer and class-validator. */
class DecoratorsOnly extends ImportDocumentsRequest {}

/** What the route answered before: the global guard's full storable-text walk, then the decorators. */
async function before(value: unknown): Promise<unknown> {
  const problem = findTextProblem(value);
  if (problem) return refused(unstorableText(problem, 'body'));
  return answer(DecoratorsOnly, value);
}

/** What it answers now: the guard's depth walk (the route is @OpaqueBody), then the pipe with the plain check. */
async function now(value: unknown): Promise<unknown> {
  const problem = findTextProblem(value, { checkStrings: false });
  if (problem) return refused(unstorableText(problem, 'body'));
  return answer(ImportDocumentsRequest, value);
}

const refused = (error: AppError) => ({ code: error.code, message: error.message, details: error.details });

const answer = (metatype: new () => object, value: unknown) => pipeAnswer(metatype, value, ImportDocumentsRequest);

const text = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('', ' ', '\uFE0F', '\uFE0F\uFE0E', 'a\uFE0F', '\u{1F600}', 'x\u0000y', '\ud800', 'ok'),
    fc.constant('a'.repeat(max)),
    fc.constant('a'.repeat(max + 1)),
    fc.constant(`${'a'.repeat(max - 1)}\u{1F600}`),
    fc.anything({ maxDepth: 0 }),
  );

const record = fc.oneof(
  fc.record(
    { id: text(256), kind: text(64), body: fc.oneof(fc.object({ maxDepth: 2 }), fc.anything({ maxDepth: 1 })) },
    { requiredKeys: ['id', 'kind', 'body'] },
  ),
  fc.record({ id: text(256), kind: text(64), body: fc.object(), extra: fc.anything({ maxDepth: 0 }) }),
  fc.anything({ maxDepth: 1 }),
);

const document = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        id: text(256),
        title: text(1000),
        content: fc.oneof(text(1_000_000), fc.constant(null)),
        records: fc.oneof(fc.array(record, { maxLength: 3 }), fc.constant(null), fc.anything({ maxDepth: 1 })),
      },
      { requiredKeys: ['id', 'title'] },
    ),
  },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('id', 'title', 'constructor', 'other', 'Records'), text(10)) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
);

describe('ImportDocumentsRequest: the plain check changes no answer of the route', () => {
  const body = fc.oneof(
    { weight: 6, arbitrary: fc.record({ documents: fc.array(document, { maxLength: 4 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ documents: fc.array(document, { maxLength: 2 }), x: fc.anything({ maxDepth: 0 }) }),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  );

  it('answers any body as the storable-text walk and the decorators alone did', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        expect(await now(value)).toEqual(await before(value));
      }),
      { numRuns: 1500 },
    );
  });

  it('takes 10,000 documents of 5 records as sent', async () => {
    const documents = Array.from({ length: 10000 }, (_, i) => ({
      id: `d-${i}`,
      title: `Document ${i}`,
      records: Array.from({ length: 5 }, (__, r) => ({ id: `r${r}`, kind: 'comment', body: { text: 'x' } })),
    }));
    const taken = (await answer(ImportDocumentsRequest, { documents })) as { fields: { documents: unknown[] } };
    expect(taken.fields.documents).toEqual(documents);
  });

  it('refuses 10,001 documents as the decorators did', async () => {
    const documents = Array.from({ length: 10001 }, (_, i) => ({ id: `d-${i}`, title: '', content: 'c' }));
    const refusal = await now({ documents });
    expect(refusal).toEqual(await before({ documents }));
    expect(refusal).toMatchObject({ message: 'documents must contain no more than 10000 elements' });
  }, 60000);

  it('reports the unstorable text the guard reported, wherever it is among 10,000 documents', async () => {
    const documents = Array.from({ length: 10000 }, (_, i) => ({ id: `d-${i}`, title: 't' }));
    documents[10].title = 'bad\u0000';
    documents[9000].id = '\ud800';
    expect(await now({ documents })).toEqual(await before({ documents }));
    expect(await now({ documents })).toMatchObject({
      message: 'documents.9000.id must not contain NUL or unpaired surrogate characters',
    });
  }, 30000);
});
