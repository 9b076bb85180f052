import fc from 'fast-check';
import { AppError, AppValidationPipe } from '@acme/platform-errors';
import { toCreateEventRequest } from '../src/events/dto/create-event.request.dto';
import { GuestListRequest, toGuestListQuery } from '../src/events/dto/guest-list.request.dto';
import { ListEventsRequest, toListEventsQuery } from '../src/events/dto/list-events.request.dto';
import {
  RsvpRequest,
  toSetRsvpInput,
  toWithdrawRsvpInput,
  WithdrawRsvpRequest,
} from '../src/events/dto/rsvp.request.dto';

/*
 * The events inputs through the global pipe, as the routes see them. The DTOs were compared with the former
 * hand-written parsers (fast-check, 10x the runs below, all equal) before that oracle was removed; these pin
 * the spec's order of problems and its wording.
 */
const pipe = new AppValidationPipe();
const via =
  <T extends object, R>(Dto: new () => T, type: 'body' | 'query', map: (dto: T) => R) =>
  async (value: unknown): Promise<R> =>
    map((await pipe.transform(value, { type, metatype: Dto })) as T);
const listQuery = via(ListEventsRequest, 'query', toListEventsQuery);
const guestListQuery = via(GuestListRequest, 'query', toGuestListQuery);
const setRsvp = via(RsvpRequest, 'body', toSetRsvpInput);
const withdrawRsvp = via(WithdrawRsvpRequest, 'body', toWithdrawRsvpInput);
const createJson = async (body: unknown) => (await toCreateEventRequest(body, 'json')).input;

/** The value, or where, what and which field of the first problem. */
async function outcome(parse: () => unknown): Promise<unknown> {
  try {
    return { value: JSON.parse(JSON.stringify(await parse())) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      code: error.code,
      location: error.details?.['location'],
      message: error.message,
      field: error.details?.['field'],
    };
  }
}
const refused = (location: string, message: string, field?: string) => ({
  code: 'VALIDATION_FAILED',
  location,
  message,
  field,
});

const online = { title: 'T', startTime: '2030-01-01T00:00:00Z', type: 'online', url: 'https://x.example' };

describe('events inputs through the global pipe', () => {
  it.each([
    [{ latitude: '1' }, 'latitude, longitude and radius go together', 'radius'],
    [{ x: '1', page: '0' }, 'x is not a known query parameter', 'x'],
    [{ page: ['1', '2'] }, 'page must be a single non-empty value', 'page'],
    [{ page: '0', latitude: 'north' }, 'latitude must be a number from -90 to 90', 'latitude'],
    [{ from: '2030-01-02', to: '2030-01-01' }, 'to must not be before from', 'to'],
    [{ sortBy: 'distance' }, 'sortBy=distance needs latitude, longitude and radius', 'sortBy'],
    [{ limit: '101', type: 'x' }, 'limit must be an integer from 1 to 100', 'limit'],
  ])('list query %j: %s', async (query, message, field) => {
    expect(await outcome(() => listQuery(query))).toEqual(refused('query', message, field));
  });

  it('gives the list query the domain defaults and lower-cased ids', async () => {
    const query = {
      spaceId: 'ABCDEF00-0000-4000-8000-000000000000',
      latitude: '48.85',
      longitude: '2.35',
      radius: '500',
    };
    expect(await listQuery(query)).toMatchObject({
      page: 1,
      limit: 20,
      spaceId: 'abcdef00-0000-4000-8000-000000000000',
      near: { latitude: 48.85, longitude: 2.35, radius: 500 },
      sortBy: 'startTime',
    });
    expect(await guestListQuery({})).toEqual({ status: null, page: 1, limit: 50 });
    expect(await outcome(() => guestListQuery({ status: 'yes' }))).toEqual(
      refused('query', 'status must be one of going, maybe, not_going', 'status'),
    );
  });

  it('answers RSVP bodies: shape, unknown keys as sent (__proto__ too), then status and userId', async () => {
    expect(await outcome(() => setRsvp([]))).toEqual(refused('body', 'The body must be a JSON object'));
    expect(await outcome(() => setRsvp({}))).toEqual(refused('body', 'status is required', 'status'));
    expect(await outcome(() => setRsvp({ status: 'yes' }))).toEqual(
      refused('body', 'status must be one of going, maybe, not_going', 'status'),
    );
    expect(await outcome(() => setRsvp(JSON.parse('{"__proto__":1,"status":"going"}')))).toEqual(
      refused('body', '__proto__ is not allowed', '__proto__'),
    );
    expect(await outcome(() => setRsvp({ status: 'going', userId: '🎉'.repeat(201) }))).toEqual(
      refused('body', 'userId must be a string of at most 200 characters', 'userId'),
    );
    expect(await setRsvp({ status: 'maybe', userId: '🎉'.repeat(200) })).toEqual({
      status: 'maybe',
      userId: '🎉'.repeat(200),
    });
    expect(await withdrawRsvp(undefined)).toEqual({ userId: undefined });
  });

  it.each([
    [{ title: 'T', timezone: 'Mars/Base' }, 'startTime is required', 'startTime'],
    [
      { ...online, startTime: 'soon', timezone: 'Mars/Base' },
      'timezone must be an IANA time zone identifier',
      'timezone',
    ],
    [
      { ...online, url: undefined, location: { latitude: 91, longitude: 0 } },
      'location.latitude must be a number from -90 to 90',
      'location.latitude',
    ],
    [{ ...online, location: { 'a b': 1 } }, 'location.a b is not allowed', 'location.a b'],
    [{ ...online, type: 'hybrid', url: undefined }, 'url is required for hybrid events', 'url'],
    [{ ...online, type: 'physical' }, 'address or location is required for physical events', 'address'],
    [{ ...online, visibility: 'members', capacity: 0 }, 'spaceId is required when visibility is members', 'spaceId'],
    [{ ...online, capacity: 1.5 }, 'capacity must be a positive integer of at most 1000000', 'capacity'],
    [{ ...online, userId: '' }, 'userId must not be empty', 'userId'],
    [{ ...online, hostIds: [''] }, 'hostIds must hold non-empty strings', 'hostIds'],
    [{ ...online, cover: 'x' }, 'cover is not allowed', 'cover'],
  ])('create body %#: %s', async (body, message, field) => {
    expect(await outcome(() => createJson(body))).toEqual(refused('body', message, field));
  });

  it('answers any input with a value or one validation problem, never another error', async () => {
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.anything({ maxDepth: 2 }));
    const keys = ['title', 'startTime', 'type', 'url', 'timezone', 'location', 'hostIds', 'metadata', 'page', 'x'];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }), async (input) => {
        for (const parse of [
          listQuery,
          guestListQuery,
          setRsvp,
          withdrawRsvp,
          () => createJson({ ...online, ...input }),
        ]) {
          const answer = (await outcome(() => parse(input))) as { value?: unknown; message?: string };
          expect(answer.value !== undefined || typeof answer.message === 'string').toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
