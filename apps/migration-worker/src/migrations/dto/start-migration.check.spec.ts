import fc from 'fast-check';
import { pipeAnswer } from '@acme/platform-testing';
import { StartMigrationRequest } from './migration.request.dto';

/** The same DTO without its plain check: every payload goes through class-transformer and class-validator. */
class DecoratorsOnly extends StartMigrationRequest {}

const answer = (metatype: new () => object, value: unknown) => pipeAnswer(metatype, value, StartMigrationRequest);

describe('StartMigrationRequest: the plain check changes no answer of the pipe', () => {
  const id = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('', 'org-a', 'org-b', '\uFE0F', 'a\uFE0F', '\u{1F600}', 'a'.repeat(256), 'a'.repeat(257)),
    fc.constant(`${'a'.repeat(255)}\u{1F600}`),
    fc.anything({ maxDepth: 0 }),
  );
  const ids = fc.oneof(
    fc.array(fc.constantFrom('d-1', 'd-2', 'd-3', 'd-4'), { maxLength: 5 }),
    fc.array(id, { maxLength: 4 }),
    fc.anything({ maxDepth: 1 }),
  );
  const data = fc.oneof(
    fc.record(
      { organizationId: id, targetOrganizationId: id, documentIds: ids },
      { requiredKeys: ['organizationId', 'targetOrganizationId'] },
    ),
    fc.record(
      { organizationId: id, targetOrganizationId: id, documentIds: ids, force: fc.boolean() },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.constantFrom('organizationId', 'targetOrganizationId', 'constructor', 'documentIDs'), id),
    fc.anything({ maxDepth: 1 }),
  );
  const body = fc.oneof(
    { weight: 5, arbitrary: fc.record({ data }) },
    { weight: 1, arbitrary: fc.record({ data, extra: fc.anything({ maxDepth: 0 }) }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  );

  it('answers any body as the decorators alone do', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        expect(await answer(StartMigrationRequest, value)).toEqual(await answer(DecoratorsOnly, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes 10,000 distinct ids of 256 characters as sent, and leaves a repeated one to the decorators', async () => {
    const documentIds = Array.from({ length: 10000 }, (_, i) => `${i}-`.padEnd(256, 'x'));
    const data = { organizationId: 'a', targetOrganizationId: 'b', documentIds };
    expect(await answer(StartMigrationRequest, { data })).toEqual({ instance: true, fields: { data } });
    const repeated = { data: { ...data, documentIds: ['a', 'b', 'a'] } };
    expect(await answer(StartMigrationRequest, repeated)).toEqual(await answer(DecoratorsOnly, repeated));
  });
});
