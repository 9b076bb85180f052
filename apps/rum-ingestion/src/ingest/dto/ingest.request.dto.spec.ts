import fc from 'fast-check';
import { AppValidationPipe } from '@acme/platform-errors';
import { pipeAnswer } from '@acme/platform-testing';
import { IngestErrorsRequest, isCommonIngestBatch, MAX_EVENTS_PER_BATCH } from './ingest.request.dto';

/** The same DTO without its plain check: every payload goes through class-transformer and class-validator. */
class DecoratorsOnly extends IngestErrorsRequest {}

const answer = (metatype: new () => object, value: unknown) => pipeAnswer(metatype, value, IngestErrorsRequest);

describe('IngestErrorsRequest: the plain check changes no answer of the pipe', () => {
  const event = fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(fc.constantFrom('message', 'url', 'level', 'stack'), fc.string()) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
  );
  const events = fc.oneof(fc.array(event, { maxLength: 4 }), fc.constant([]), fc.anything({ maxDepth: 1 }));
  const body = fc.oneof(
    { weight: 5, arbitrary: fc.record({ events }) },
    { weight: 1, arbitrary: fc.record({ events, extra: fc.anything({ maxDepth: 0 }) }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  );

  it('answers any body as the decorators alone do, except that a batch it takes keeps every key as sent', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const decorators = await answer(DecoratorsOnly, value);
        if (!isCommonIngestBatch(value))
          return void expect(await answer(IngestErrorsRequest, value)).toEqual(decorators);
        // Accepted either way. Events are passed on as parsed (docs/decisions.md): class-transformer's copy drops an
        // event's keys named like Object.prototype's (`{"toString": false}` became `{}`), the plain check does not.
        expect(decorators).toMatchObject({ instance: true });
        expect(await answer(IngestErrorsRequest, value)).toEqual({ instance: true, fields: value });
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps an event key named like an Object.prototype member (found by the property above, seed 490248648)', async () => {
    const sent = { events: [{ toString: false, valueOf: 'x' }] };
    expect(await answer(IngestErrorsRequest, sent)).toEqual({ instance: true, fields: sent });
  });

  it('takes a full batch as sent, and leaves one event too many to the decorators', async () => {
    const full = { events: Array.from({ length: MAX_EVENTS_PER_BATCH }, (_, i) => ({ message: `e${i}` })) };
    expect(isCommonIngestBatch(full)).toBe(true);
    expect(await answer(IngestErrorsRequest, full)).toEqual({ instance: true, fields: full });
    const over = { events: [...full.events, { message: 'one more' }] };
    expect(isCommonIngestBatch(over)).toBe(false);
    expect(await answer(IngestErrorsRequest, over)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('passes the events on as the same objects (no deep copy)', async () => {
    const sent = { events: [{ message: 'boom', nested: { deep: [1, 2, 3] } }] };
    const dto = (await new AppValidationPipe().transform(sent, {
      type: 'body',
      metatype: IngestErrorsRequest,
    })) as IngestErrorsRequest;
    expect(dto.events[0]).toBe(sent.events[0]);
  });
});
