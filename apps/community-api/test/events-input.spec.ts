import fc from 'fast-check';
import { AppError, AppValidationPipe } from '@acme/platform-errors';
import { toCreateEventRequest } from '../src/events/input/create-event.request.dto';
import { GuestListRequest, toGuestListQuery } from '../src/events/input/guest-list.request.dto';
import { ListEventsRequest, toListEventsQuery } from '../src/events/input/list-events.request.dto';
import {
  RsvpRequest,
  toSetRsvpInput,
  toWithdrawRsvpInput,
  WithdrawRsvpRequest,
} from '../src/events/input/rsvp.request.dto';
import {
  formerCreateEventInput,
  formerDecodeMultipart,
  formerGuestListQuery,
  formerListEventsQuery,
  formerRsvpBody,
  formerWithdrawBody,
} from './support/former-event-parsers';

const pipe = new AppValidationPipe();
/** The global pipe's answer for a DTO, then the DTO as the domain takes it. */
const via =
  <T extends object, R>(Dto: new () => T, type: 'body' | 'query', map: (dto: T) => R) =>
  async (value: unknown): Promise<R> =>
    map((await pipe.transform(value, { type, metatype: Dto })) as T);
const listQuery = via(ListEventsRequest, 'query', toListEventsQuery);
const guestListQuery = via(GuestListRequest, 'query', toGuestListQuery);
const setRsvp = via(RsvpRequest, 'body', toSetRsvpInput);
const withdrawRsvp = via(WithdrawRsvpRequest, 'body', toWithdrawRsvpInput);
const createJson = async (body: unknown) => (await toCreateEventRequest(body, 'json')).input;
const createMultipart = async (fields: unknown) => (await toCreateEventRequest(fields, 'multipart')).input;

/** The wire code each answer gets on these routes (the pipe's failures by location, the domain's as body). */
const FORMER_CODE: Record<string, string> = {
  'VALIDATION_FAILED@body': 'EVENT_INVALID_BODY',
  'VALIDATION_FAILED@query': 'EVENT_INVALID_QUERY',
  EVENT_INVALID_INPUT: 'EVENT_INVALID_BODY',
};

/** What a parser answers: its value, or the code, message and field of its error. */
async function outcome(parse: () => unknown): Promise<unknown> {
  try {
    return { value: JSON.parse(JSON.stringify(await parse())) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const at = error.code === 'VALIDATION_FAILED' ? `${error.code}@${String(error.details?.['location'])}` : error.code;
    return { code: FORMER_CODE[at] ?? error.code, message: error.message, field: error.details?.['field'] };
  }
}

const LIST_KEYS = [
  'page',
  'limit',
  'from',
  'to',
  'type',
  'visibility',
  'status',
  'spaceId',
  'userId',
  'hostId',
  'latitude',
  'longitude',
  'radius',
  'sortBy',
  'x',
];
const listValue = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '0',
    '20',
    '101',
    '-3',
    '2.5',
    '48.85',
    '200',
    '5000',
    '2030-01-01',
    '2030-01-01T10:00:00Z',
    '2029-01-01',
    'online',
    'public',
    'active',
    'distance',
    'startTime',
    '00000000-0000-4000-8000-000000000000',
    'ABCDEF00-0000-4000-8000-000000000000',
  ),
  fc.string({ maxLength: 6 }),
  fc.array(fc.constantFrom('1', '2'), { minLength: 2, maxLength: 2 }),
);

describe('events input DTOs answer exactly as the former hand-written parsers', () => {
  it('list query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...LIST_KEYS), listValue, { maxKeys: 6 }), async (query) => {
        expect(await outcome(() => listQuery(query))).toEqual(await outcome(() => formerListEventsQuery(query)));
      }),
      { numRuns: 2000 },
    );
  });

  it('guest list query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('status', 'page', 'limit', 'x'),
          fc.oneof(fc.constantFrom('going', 'maybe', 'yes', '1', '0', '100', '101', ''), fc.string({ maxLength: 4 })),
        ),
        async (query) => {
          expect(await outcome(() => guestListQuery(query))).toEqual(await outcome(() => formerGuestListQuery(query)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('RSVP bodies', async () => {
    const body = fc.oneof(
      fc.anything(),
      fc.dictionary(
        fc.constantFrom('status', 'userId', 'other', '__proto__'),
        fc.oneof(
          fc.constantFrom('going', 'maybe', 'not_going', 'u-1', null),
          fc.string({ maxLength: 210 }),
          fc.anything(),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        expect(await outcome(() => setRsvp(value))).toEqual(await outcome(() => formerRsvpBody(value)));
        expect(await outcome(() => withdrawRsvp(value))).toEqual(await outcome(() => formerWithdrawBody(value)));
      }),
      { numRuns: 1000 },
    );
  });

  const EVENT_KEYS = [
    'title',
    'startTime',
    'type',
    'description',
    'endTime',
    'timezone',
    'url',
    'venueName',
    'address',
    'location',
    'spaceId',
    'visibility',
    'capacity',
    'allowMaybe',
    'guestListVisible',
    'hostIds',
    'metadata',
    'userId',
    'extra',
  ];
  const eventValue = fc.oneof(
    fc.constantFrom(
      'online',
      'physical',
      'hybrid',
      'members',
      'invite',
      'public',
      '',
      'https://x.example',
      'ftp://x',
      '2030-05-01T18:00:00',
      '2030-05-01T18:00:00Z',
      '2030-05-01T17:00:00Z',
      '2029-01-01T00:00:00+02:00',
      'Europe/Berlin',
      'Mars/Base',
      '00000000-0000-4000-8000-00000000000A',
      'not-a-uuid',
      'true',
      'false',
      '4',
      '0',
      '2.5',
      '[]',
      '["a"]',
      '{"latitude":1,"longitude":2}',
      '{"latitude":1}',
      '{"k":1}',
      '{nope',
    ),
    fc.constantFrom(
      null,
      true,
      false,
      0,
      3,
      1.5,
      1_000_001,
      [],
      ['a'],
      [''],
      { latitude: 1, longitude: 2 },
      { latitude: 91, longitude: 0 },
      { latitude: 1, longitude: 2, z: 1 },
      { k: 'v' },
    ),
    fc.string({ maxLength: 8 }),
    fc.anything({ maxDepth: 2 }),
  );
  const base = { title: 'T', startTime: '2030-01-01T00:00:00Z', type: 'online', url: 'https://x.example' };

  it('create-event body (JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.dictionary(fc.constantFrom(...EVENT_KEYS), eventValue, { maxKeys: 5 }),
        async (onBase, fields) => {
          const body = onBase ? { ...base, ...fields } : fields;
          expect(await outcome(() => createJson(body))).toEqual(await outcome(() => formerCreateEventInput(body)));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('create-event fields (multipart text)', async () => {
    const text = fc.oneof(
      eventValue.filter((value): value is string => typeof value === 'string'),
      fc.string({ maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...EVENT_KEYS), text, { maxKeys: 5 }), async (fields) => {
        const sent = { ...base, ...fields };
        expect(await outcome(() => createMultipart(sent))).toEqual(
          await outcome(() => formerCreateEventInput(formerDecodeMultipart(sent))),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the pinned messages', async () => {
    expect(await outcome(() => listQuery({ latitude: '1' }))).toEqual({
      code: 'EVENT_INVALID_QUERY',
      message: 'latitude, longitude and radius go together',
      field: 'radius',
    });
    expect(await outcome(() => setRsvp({ status: 'yes' }))).toEqual({
      code: 'EVENT_INVALID_BODY',
      message: 'status must be one of going, maybe, not_going',
      field: 'status',
    });
    expect(await outcome(() => setRsvp([]))).toEqual({
      code: 'EVENT_INVALID_BODY',
      message: 'The body must be a JSON object',
      field: undefined,
    });
  });
});
