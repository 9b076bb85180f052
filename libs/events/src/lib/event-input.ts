import { invalidBody } from './events.errors';
import { characterCount, isPlainObject, oneOf, optionalString, parseJsonField, rejectUnknown, requireObject } from './input-checks';
import { zonedLocalToUtc } from './zoned-time';

export const EVENT_TYPES = ['online', 'physical', 'hybrid'] as const;
export const EVENT_VISIBILITIES = ['public', 'members', 'invite'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type EventVisibility = (typeof EVENT_VISIBILITIES)[number];

export const METADATA_MAX_BYTES = 1024 * 1024;
const MAX_HOSTS = 100;
const MAX_CAPACITY = 1_000_000;

export interface GeoPointInput {
  latitude: number;
  longitude: number;
}

/** A create request after validation; JSON and multipart encodings both end here. */
export interface CreateEventInput {
  title: string;
  startTime: Date;
  type: EventType;
  description: string | null;
  endTime: Date | null;
  timezone: string | null;
  url: string | null;
  venueName: string | null;
  address: string | null;
  location: GeoPointInput | null;
  spaceId: string | null;
  visibility: EventVisibility;
  capacity: number | null;
  allowMaybe: boolean;
  guestListVisible: boolean;
  hostIds: string[];
  metadata: Record<string, unknown>;
  userId: string | null;
}

export const EVENT_FIELDS = [
  'title', 'startTime', 'type', 'description', 'endTime', 'timezone', 'url', 'venueName', 'address', 'location',
  'spaceId', 'visibility', 'capacity', 'allowMaybe', 'guestListVisible', 'hostIds', 'metadata', 'userId',
] as const;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An ISO 8601 date-time with an offset; with `zone` given, a local date-time in that zone is accepted too. */
function isoDate(value: unknown, field: string, zone: string | null): Date {
  let date = typeof value === 'string' && ISO_DATETIME.test(value) ? new Date(value) : undefined;
  if (!date && zone && typeof value === 'string') date = zonedLocalToUtc(value, zone);
  if (!date || Number.isNaN(date.getTime())) {
    throw invalidBody(`${field} must be an ISO 8601 date-time with a time zone offset, or a local date-time with timezone`, field);
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
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw invalidBody('url must be an http or https URL', 'url');
  return text;
}

function location(value: unknown): GeoPointInput | null {
  if (value === undefined || value === null) return null;
  const point = requireObject(value, 'location');
  rejectUnknown(point, ['latitude', 'longitude'], 'location');
  const { latitude, longitude } = point;
  if (typeof latitude !== 'number' || !Number.isFinite(latitude) || latitude < -90 || latitude > 90) throw invalidBody('location.latitude must be a number from -90 to 90', 'location.latitude');
  if (typeof longitude !== 'number' || !Number.isFinite(longitude) || longitude < -180 || longitude > 180) throw invalidBody('location.longitude must be a number from -180 to 180', 'location.longitude');
  return { latitude, longitude };
}

function bool(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidBody(`${field} must be a boolean`, field);
  return value;
}

function hostIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_HOSTS) throw invalidBody(`hostIds must be an array of at most ${MAX_HOSTS} user ids`, 'hostIds');
  for (const id of value) {
    if (typeof id !== 'string' || id.length < 1 || id.length > 200) throw invalidBody('hostIds must hold non-empty strings', 'hostIds');
  }
  return value as string[];
}

function metadata(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw invalidBody('metadata must be an object', 'metadata');
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES) throw invalidBody('metadata must be at most 1 MB', 'metadata');
  return value;
}

/**
 * Multipart sends every field as a string: `location`, `hostIds` and `metadata` as JSON, numbers and booleans
 * as their text. This turns such a record into the JSON shape so one validator serves both encodings.
 */
export function decodeMultipartFields(fields: Record<string, string>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fields)) {
    if (name === 'location' || name === 'hostIds' || name === 'metadata') decoded[name] = parseJsonField(text, name);
    else if (name === 'capacity') decoded[name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (name === 'allowMaybe' || name === 'guestListVisible') decoded[name] = text === 'true' ? true : text === 'false' ? false : text;
    else decoded[name] = text;
  }
  return decoded;
}

/** Every field and rule of the Event of docs/community-api.md#events; throws `event/invalid-body` naming the first bad field. */
export function parseCreateEventInput(raw: unknown): CreateEventInput {
  if (!isPlainObject(raw)) throw invalidBody('The body must be a JSON object');
  rejectUnknown(raw, EVENT_FIELDS, '');
  const title = raw['title'];
  if (typeof title !== 'string' || title.length < 1 || characterCount(title) > 300) throw invalidBody('title must be a string of 1 to 300 characters', 'title');
  if (raw['startTime'] === undefined) throw invalidBody('startTime is required', 'startTime');
  const zone = timezone(raw['timezone']);
  const startTime = isoDate(raw['startTime'], 'startTime', zone);
  const endTime = raw['endTime'] === undefined || raw['endTime'] === null ? null : isoDate(raw['endTime'], 'endTime', zone);
  if (endTime && endTime.getTime() < startTime.getTime()) throw invalidBody('endTime must not be before startTime', 'endTime');
  if (raw['type'] === undefined) throw invalidBody('type is required', 'type');
  const type = oneOf(raw['type'], 'type', EVENT_TYPES);
  const url = httpUrl(raw['url']);
  const address = optionalString(raw['address'], 'address', 1000) ?? null;
  const point = location(raw['location']);
  if ((type === 'online' || type === 'hybrid') && url === null) throw invalidBody(`url is required for ${type} events`, 'url');
  if ((type === 'physical' || type === 'hybrid') && address === null && point === null) {
    throw invalidBody(`address or location is required for ${type} events`, 'address');
  }
  const visibility = raw['visibility'] === undefined ? 'public' : oneOf(raw['visibility'], 'visibility', EVENT_VISIBILITIES);
  const spaceIdRaw = raw['spaceId'];
  if (spaceIdRaw !== undefined && spaceIdRaw !== null && (typeof spaceIdRaw !== 'string' || !UUID.test(spaceIdRaw))) throw invalidBody('spaceId must be a UUID', 'spaceId');
  const spaceId = (spaceIdRaw as string | undefined | null) ?? null;
  if (visibility === 'members' && spaceId === null) throw invalidBody('spaceId is required when visibility is members', 'spaceId');
  const capacityRaw = raw['capacity'];
  if (capacityRaw !== undefined && capacityRaw !== null && (typeof capacityRaw !== 'number' || !Number.isInteger(capacityRaw) || capacityRaw < 1 || capacityRaw > MAX_CAPACITY)) {
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
