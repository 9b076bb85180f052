/**
 * The hand-written parsers the events lib had before its routes validated input with DTOs (commit 1ad1f84),
 * kept as the oracle of events-input.spec.ts: the DTOs must answer exactly as these did (value, or message
 * and field of the first problem).
 */
import { EVENT_TYPES, EVENT_VISIBILITIES, MAX_RADIUS_METRES, RSVP_STATUSES, zonedLocalToUtc } from '@acme/events';
import { AppError } from '@acme/platform-errors';

// The former codes, which the domain no longer has (it names no HTTP location).
const invalidBody = (message: string, field?: string) =>
  new AppError('EVENT_INVALID_BODY', 'validation', message, { details: field === undefined ? undefined : { field } });
const invalidQuery = (message: string, field?: string) =>
  new AppError('EVENT_INVALID_QUERY', 'validation', message, { details: field === undefined ? undefined : { field } });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const characterCount = (value: string) => [...value].length;
function optionalString(value: unknown, field: string, max = 10000): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || characterCount(value) > max)
    throw invalidBody(`${field} must be a string of at most ${max} characters`, field);
  return value;
}
function rejectUnknown(value: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw invalidBody(`${unknown} is not allowed`, unknown);
}
function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw invalidBody(`${field} must be one of ${allowed.join(', ')}`, field);
  return value as T;
}

export function formerRsvpBody(body: unknown) {
  if (!isPlainObject(body)) throw invalidBody('The body must be a JSON object');
  rejectUnknown(body, ['status', 'userId']);
  if (body['status'] === undefined) throw invalidBody('status is required', 'status');
  const status = oneOf(body['status'], 'status', RSVP_STATUSES);
  return { status, userId: optionalString(body['userId'], 'userId', 200) };
}

export function formerWithdrawBody(body: unknown) {
  const payload = body === undefined || body === null ? {} : body;
  if (!isPlainObject(payload)) throw invalidBody('The body must be a JSON object');
  rejectUnknown(payload, ['userId']);
  return { userId: optionalString(payload['userId'], 'userId', 200) };
}

function positive(query: Record<string, unknown>, key: string, max: number, fallback: number): number {
  const value = query[key];
  if (value === undefined) return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > max)
    throw invalidQuery(`${key} must be an integer from 1 to ${max}`, key);
  return number;
}

export function formerGuestListQuery(rawQuery: unknown) {
  const query = isPlainObject(rawQuery) ? rawQuery : {};
  const unknown = Object.keys(query).find((key) => !['status', 'page', 'limit'].includes(key));
  if (unknown !== undefined) throw invalidQuery(`${unknown} is not a known query parameter`, unknown);
  const status = query['status'];
  if (status !== undefined && (typeof status !== 'string' || !(RSVP_STATUSES as readonly string[]).includes(status))) {
    throw invalidQuery(`status must be one of ${RSVP_STATUSES.join(', ')}`, 'status');
  }
  return {
    status: (status as string | undefined) ?? null,
    page: positive(query, 'page', 1_000_000, 1),
    limit: positive(query, 'limit', 100, 50),
  };
}

const LIST_QUERY_KEYS = [
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
] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function text(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    throw invalidQuery(`${key} must be a single non-empty value`, key);
  return value;
}

function integer(query: Record<string, unknown>, key: string, min: number, max: number, fallback: number): number {
  const value = text(query, key);
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max)
    throw invalidQuery(`${key} must be an integer from ${min} to ${max}`, key);
  return number;
}

function decimal(query: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = text(query, key);
  if (value === undefined) return undefined;
  const number = DECIMAL.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number) || number < min || number > max)
    throw invalidQuery(`${key} must be a number from ${min} to ${max}`, key);
  return number;
}

function date(query: Record<string, unknown>, key: string): Date | null {
  const value = text(query, key);
  if (value === undefined) return null;
  const parsed = ISO_DATETIME.test(value) ? new Date(value) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime()))
    throw invalidQuery(`${key} must be an ISO 8601 date or date-time`, key);
  return parsed;
}

function choice<T extends string>(query: Record<string, unknown>, key: string, allowed: readonly T[]): T | null {
  const value = text(query, key);
  if (value === undefined) return null;
  if (!(allowed as readonly string[]).includes(value))
    throw invalidQuery(`${key} must be one of ${allowed.join(', ')}`, key);
  return value as T;
}

/** GET .../events query string: paging, a start-time window, filters and an optional radius in metres. */
export function formerListEventsQuery(raw: unknown) {
  const query = isPlainObject(raw) ? raw : {};
  const unknown = Object.keys(query).find((key) => !(LIST_QUERY_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) throw invalidQuery(`${unknown} is not a known query parameter`, unknown);
  const latitude = decimal(query, 'latitude', -90, 90);
  const longitude = decimal(query, 'longitude', -180, 180);
  const radius = decimal(query, 'radius', 0, MAX_RADIUS_METRES);
  const given = [latitude, longitude, radius].filter((value) => value !== undefined).length;
  if (given !== 0 && given !== 3) throw invalidQuery('latitude, longitude and radius go together', 'radius');
  const near =
    given === 3 ? { latitude: latitude as number, longitude: longitude as number, radius: radius as number } : null;
  const from = date(query, 'from');
  const to = date(query, 'to');
  if (from && to && to.getTime() < from.getTime()) throw invalidQuery('to must not be before from', 'to');
  const spaceId = text(query, 'spaceId');
  if (spaceId !== undefined && !UUID.test(spaceId)) throw invalidQuery('spaceId must be a UUID', 'spaceId');
  const userId = text(query, 'userId');
  if (userId !== undefined && !UUID.test(userId)) throw invalidQuery('userId must be a UUID', 'userId');
  const sortBy = choice(query, 'sortBy', ['startTime', 'distance'] as const) ?? 'startTime';
  if (sortBy === 'distance' && !near)
    throw invalidQuery('sortBy=distance needs latitude, longitude and radius', 'sortBy');
  return {
    page: integer(query, 'page', 1, 1_000_000, 1),
    limit: integer(query, 'limit', 1, 100, 20),
    from,
    to,
    type: choice(query, 'type', EVENT_TYPES),
    visibility: choice(query, 'visibility', EVENT_VISIBILITIES),
    status: choice(query, 'status', ['active', 'cancelled'] as const),
    spaceId: spaceId?.toLowerCase() ?? null,
    userId: userId?.toLowerCase() ?? null,
    hostId: text(query, 'hostId') ?? null,
    near,
    sortBy,
  };
}

// ---- POST .../events (libs/events/src/lib/event-input.ts at 1ad1f84) ----
function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidBody(`${field} must be an object`, field);
  return value;
}
function rejectUnknownIn(value: Record<string, unknown>, allowed: readonly string[], field: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    throw invalidBody(`${field ? `${field}.` : ''}${unknown} is not allowed`, field ? `${field}.${unknown}` : unknown);
}
function parseJsonField(value: string, field: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalidBody(`${field} must be valid JSON`, field);
  }
}
const MAX_HOSTS = 100;
const MAX_CAPACITY = 1_000_000;
const METADATA_MAX_BYTES = 1024 * 1024;
const EVENT_FIELDS = [
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
] as const;
const EVENT_ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 date-time with an offset; with `zone` given, a local date-time in that zone is accepted too. */
function isoDate(value: unknown, field: string, zone: string | null): Date {
  let date = typeof value === 'string' && EVENT_ISO_DATETIME.test(value) ? new Date(value) : undefined;
  if (!date && zone && typeof value === 'string') date = zonedLocalToUtc(value, zone);
  if (!date || Number.isNaN(date.getTime())) {
    throw invalidBody(
      `${field} must be an ISO 8601 date-time with a time zone offset, or a local date-time with timezone`,
      field,
    );
  }
  return date;
}

function timezone(value: unknown): string | null {
  const zone = optionalString(value, 'timezone', 100);
  if (zone === undefined) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw invalidBody('timezone must be an IANA time zone identifier', 'timezone');
  }
  return zone;
}

function httpUrl(value: unknown): string | null {
  const text = optionalString(value, 'url', 2048);
  if (text === undefined) return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw invalidBody('url must be an http or https URL', 'url');
  return text;
}

function location(value: unknown) {
  if (value === undefined || value === null) return null;
  const point = requireObject(value, 'location');
  rejectUnknownIn(point, ['latitude', 'longitude'], 'location');
  const { latitude, longitude } = point;
  if (typeof latitude !== 'number' || !Number.isFinite(latitude) || latitude < -90 || latitude > 90)
    throw invalidBody('location.latitude must be a number from -90 to 90', 'location.latitude');
  if (typeof longitude !== 'number' || !Number.isFinite(longitude) || longitude < -180 || longitude > 180)
    throw invalidBody('location.longitude must be a number from -180 to 180', 'location.longitude');
  return { latitude, longitude };
}

function bool(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidBody(`${field} must be a boolean`, field);
  return value;
}

function hostIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_HOSTS)
    throw invalidBody(`hostIds must be an array of at most ${MAX_HOSTS} user ids`, 'hostIds');
  for (const id of value) {
    if (typeof id !== 'string' || id.length < 1 || id.length > 200)
      throw invalidBody('hostIds must hold non-empty strings', 'hostIds');
  }
  return value as string[];
}

function metadata(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw invalidBody('metadata must be an object', 'metadata');
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES)
    throw invalidBody('metadata must be at most 1 MB', 'metadata');
  return value;
}

/**
 * Multipart sends every field as a string: `location`, `hostIds` and `metadata` as JSON, numbers and booleans
 * as their text. This turns such a record into the JSON shape so one validator serves both encodings.
 */
export function formerDecodeMultipart(fields: Record<string, string>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fields)) {
    if (name === 'location' || name === 'hostIds' || name === 'metadata') decoded[name] = parseJsonField(text, name);
    else if (name === 'capacity') decoded[name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (name === 'allowMaybe' || name === 'guestListVisible')
      decoded[name] = text === 'true' ? true : text === 'false' ? false : text;
    else decoded[name] = text;
  }
  return decoded;
}

/** Every field and rule of the Event of docs/community-api.md#events; throws `event/invalid-body` naming the first bad field. */
export function formerCreateEventInput(raw: unknown) {
  if (!isPlainObject(raw)) throw invalidBody('The body must be a JSON object');
  rejectUnknownIn(raw, EVENT_FIELDS, '');
  const title = raw['title'];
  if (typeof title !== 'string' || title.length < 1 || characterCount(title) > 300)
    throw invalidBody('title must be a string of 1 to 300 characters', 'title');
  if (raw['startTime'] === undefined) throw invalidBody('startTime is required', 'startTime');
  const zone = timezone(raw['timezone']);
  const startTime = isoDate(raw['startTime'], 'startTime', zone);
  const endTime =
    raw['endTime'] === undefined || raw['endTime'] === null ? null : isoDate(raw['endTime'], 'endTime', zone);
  if (endTime && endTime.getTime() < startTime.getTime())
    throw invalidBody('endTime must not be before startTime', 'endTime');
  if (raw['type'] === undefined) throw invalidBody('type is required', 'type');
  const type = oneOf(raw['type'], 'type', EVENT_TYPES);
  const url = httpUrl(raw['url']);
  const address = optionalString(raw['address'], 'address', 1000) ?? null;
  const point = location(raw['location']);
  if ((type === 'online' || type === 'hybrid') && url === null)
    throw invalidBody(`url is required for ${type} events`, 'url');
  if ((type === 'physical' || type === 'hybrid') && address === null && point === null) {
    throw invalidBody(`address or location is required for ${type} events`, 'address');
  }
  const visibility =
    raw['visibility'] === undefined ? 'public' : oneOf(raw['visibility'], 'visibility', EVENT_VISIBILITIES);
  const spaceIdRaw = raw['spaceId'];
  if (spaceIdRaw !== undefined && spaceIdRaw !== null && (typeof spaceIdRaw !== 'string' || !UUID.test(spaceIdRaw)))
    throw invalidBody('spaceId must be a UUID', 'spaceId');
  const spaceId = (spaceIdRaw as string | undefined | null) ?? null;
  if (visibility === 'members' && spaceId === null)
    throw invalidBody('spaceId is required when visibility is members', 'spaceId');
  const capacityRaw = raw['capacity'];
  if (
    capacityRaw !== undefined &&
    capacityRaw !== null &&
    (typeof capacityRaw !== 'number' || !Number.isInteger(capacityRaw) || capacityRaw < 1 || capacityRaw > MAX_CAPACITY)
  ) {
    throw invalidBody(`capacity must be a positive integer of at most ${MAX_CAPACITY}`, 'capacity');
  }
  const userId = optionalString(raw['userId'], 'userId', 200);
  if (userId === '') throw invalidBody('userId must not be empty', 'userId');
  return {
    title,
    startTime,
    type,
    description: optionalString(raw['description'], 'description', 20000) ?? null,
    endTime,
    timezone: zone,
    url,
    venueName: optionalString(raw['venueName'], 'venueName', 300) ?? null,
    address,
    location: point,
    spaceId: spaceId?.toLowerCase() ?? null,
    visibility,
    capacity: (capacityRaw as number | undefined | null) ?? null,
    allowMaybe: bool(raw['allowMaybe'], 'allowMaybe', true),
    guestListVisible: bool(raw['guestListVisible'], 'guestListVisible', true),
    hostIds: hostIds(raw['hostIds']),
    metadata: metadata(raw['metadata']),
    userId: userId ?? null,
  };
}
