import fc from 'fast-check';
import { AppError } from '@acme/platform-errors';
import { normaliseMultipartFields as decodeMultipartFields, toCreateEventRequest } from './create-event.request.dto';

const parseCreateEventInput = async (raw: unknown) => (await toCreateEventRequest(raw, 'json')).input;

const valid = { title: 'T', startTime: '2030-01-01T00:00:00Z', type: 'online', url: 'https://x.example' };

describe('CreateEventBody (toCreateEventRequest)', () => {
  it('normalises a minimal online event with the spec defaults', async () => {
    expect(await parseCreateEventInput(valid)).toMatchObject({
      visibility: 'public',
      allowMaybe: true,
      guestListVisible: true,
      capacity: null,
      hostIds: [],
      metadata: {},
      location: null,
      userId: null,
    });
  });

  it('counts title characters as code points: 300 emoji are accepted, 301 refused', async () => {
    expect((await parseCreateEventInput({ ...valid, title: '🎉'.repeat(300) })).title).toHaveLength(600);
    expect((await parseCreateEventInput({ ...valid, title: '𝒜'.repeat(299) + 'a' })).title.startsWith('𝒜')).toBe(true);
    await expect(parseCreateEventInput({ ...valid, title: '🎉'.repeat(301) })).rejects.toThrow(AppError);
    await expect(parseCreateEventInput({ ...valid, title: 'a'.repeat(301) })).rejects.toThrow(
      'title must be a string of 1 to 300 characters',
    );
  });

  it('accepts a local start and end time when timezone is given, and stores UTC; without it an offset is required', async () => {
    const local = await parseCreateEventInput({
      ...valid,
      startTime: '2030-05-01T18:00:00',
      endTime: '2030-05-01T20:00',
      timezone: 'America/New_York',
    });
    expect({ start: local.startTime.toISOString(), end: local.endTime?.toISOString(), zone: local.timezone }).toEqual({
      start: '2030-05-01T22:00:00.000Z',
      end: '2030-05-02T00:00:00.000Z',
      zone: 'America/New_York',
    });
    await expect(parseCreateEventInput({ ...valid, startTime: '2030-05-01T18:00:00' })).rejects.toThrow(
      'startTime must be an ISO 8601 date-time with a time zone offset',
    );
  });

  it('keeps judging time zones the same when they repeat (valid names are remembered, invalid ones never)', async () => {
    for (let round = 0; round < 3; round += 1) {
      expect(
        (
          await parseCreateEventInput({
            ...valid,
            timezone: 'Europe/Paris',
            startTime: '2030-05-01T18:00:00',
          })
        ).startTime.toISOString(),
      ).toBe('2030-05-01T16:00:00.000Z');
      await expect(parseCreateEventInput({ ...valid, timezone: 'Europe/Nowhere' })).rejects.toThrow(
        'timezone must be an IANA time zone identifier',
      );
    }
  });

  it('gives JSON and multipart encodings the same result', async () => {
    const json = {
      ...valid,
      location: { latitude: 1, longitude: 2 },
      hostIds: ['a'],
      metadata: { k: true },
      capacity: 4,
      allowMaybe: false,
      guestListVisible: true,
    };
    const multipart = decodeMultipartFields({
      ...valid,
      location: '{"latitude":1,"longitude":2}',
      hostIds: '["a"]',
      metadata: '{"k":true}',
      capacity: '4',
      allowMaybe: 'false',
      guestListVisible: 'true',
    });
    expect(await parseCreateEventInput(multipart)).toEqual(await parseCreateEventInput(json));
  });

  it('fails only with a body validation error naming a field (event/invalid-body on the wire), for any one field replaced by anything', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'title',
          'startTime',
          'type',
          'url',
          'location',
          'capacity',
          'hostIds',
          'metadata',
          'visibility',
          'timezone',
          'spaceId',
          'endTime',
        ),
        fc.anything(),
        async (key, value) => {
          try {
            await parseCreateEventInput({ ...valid, [key]: value });
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).details).toMatchObject({ location: 'body', field: expect.any(String) });
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rejects multipart JSON fields that do not parse', () => {
    for (const field of ['location', 'hostIds', 'metadata']) {
      expect(() => decodeMultipartFields({ [field]: '{nope' })).toThrow(`${field} must be valid JSON`);
    }
  });
});
