import fc from 'fast-check';
import { EventError } from '@acme/events';
import { toGuestListQuery } from '../src/events/input/guest-list.query';
import { toListEventsQuery } from '../src/events/input/list-events.query';
import { toSetRsvpInput, toWithdrawRsvpInput } from '../src/events/input/rsvp.body';
import { formerGuestListQuery, formerListEventsQuery, formerRsvpBody, formerWithdrawBody } from './support/former-event-parsers';

/** What a parser answers: its value, or the code, message and field of its error. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: JSON.parse(JSON.stringify(parse())) };
  } catch (error) {
    if (!(error instanceof EventError)) throw error;
    return { code: error.code, message: error.message, field: error.details?.['field'] };
  }
}

const LIST_KEYS = ['page', 'limit', 'from', 'to', 'type', 'visibility', 'status', 'spaceId', 'userId', 'hostId', 'latitude', 'longitude', 'radius', 'sortBy', 'x'];
const listValue = fc.oneof(
  fc.constantFrom('', '1', '0', '20', '101', '-3', '2.5', '48.85', '200', '5000', '2030-01-01', '2030-01-01T10:00:00Z', '2029-01-01', 'online', 'public', 'active', 'distance', 'startTime', '00000000-0000-4000-8000-000000000000', 'ABCDEF00-0000-4000-8000-000000000000'),
  fc.string({ maxLength: 6 }),
  fc.array(fc.constantFrom('1', '2'), { minLength: 2, maxLength: 2 }),
);

describe('events input DTOs answer exactly as the former hand-written parsers', () => {
  it('list query', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...LIST_KEYS), listValue, { maxKeys: 6 }), (query) => {
        expect(outcome(() => toListEventsQuery(query))).toEqual(outcome(() => formerListEventsQuery(query)));
      }),
      { numRuns: 2000 },
    );
  });

  it('guest list query', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('status', 'page', 'limit', 'x'), fc.oneof(fc.constantFrom('going', 'maybe', 'yes', '1', '0', '100', '101', ''), fc.string({ maxLength: 4 }))), (query) => {
        expect(outcome(() => toGuestListQuery(query))).toEqual(outcome(() => formerGuestListQuery(query)));
      }),
      { numRuns: 1000 },
    );
  });

  it('RSVP bodies', () => {
    const body = fc.oneof(
      fc.anything(),
      fc.dictionary(fc.constantFrom('status', 'userId', 'other', '__proto__'), fc.oneof(fc.constantFrom('going', 'maybe', 'not_going', 'u-1', null), fc.string({ maxLength: 210 }), fc.anything())),
    );
    fc.assert(
      fc.property(body, (value) => {
        expect(outcome(() => toSetRsvpInput(value))).toEqual(outcome(() => formerRsvpBody(value)));
        expect(outcome(() => toWithdrawRsvpInput(value))).toEqual(outcome(() => formerWithdrawBody(value)));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the pinned messages', () => {
    expect(outcome(() => toListEventsQuery({ latitude: '1' }))).toEqual({ code: 'EVENT_INVALID_QUERY', message: 'latitude, longitude and radius go together', field: 'radius' });
    expect(outcome(() => toSetRsvpInput({ status: 'yes' }))).toEqual({ code: 'EVENT_INVALID_BODY', message: 'status must be one of going, maybe, not_going', field: 'status' });
    expect(outcome(() => toSetRsvpInput([]))).toEqual({ code: 'EVENT_INVALID_BODY', message: 'The body must be a JSON object', field: undefined });
  });
});
