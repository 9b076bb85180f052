/**
 * The hand-written parsers the events lib had before its routes validated input with DTOs (commit 1ad1f84),
 * kept as the oracle of events-input.spec.ts: the DTOs must answer exactly as these did (value, or message
 * and field of the first problem).
 */
import { EVENT_TYPES, EVENT_VISIBILITIES, invalidBody, invalidQuery, MAX_RADIUS_METRES, RSVP_STATUSES } from '@acme/events';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const characterCount = (value: string) => [...value].length;
function optionalString(value: unknown, field: string, max = 10000): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || characterCount(value) > max) throw invalidBody(`${field} must be a string of at most ${max} characters`, field);
  return value;
}
function rejectUnknown(value: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw invalidBody(`${unknown} is not allowed`, unknown);
}
function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw invalidBody(`${field} must be one of ${allowed.join(', ')}`, field);
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
  if (!Number.isSafeInteger(number) || number < 1 || number > max) throw invalidQuery(`${key} must be an integer from 1 to ${max}`, key);
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
  return { status: (status as string | undefined) ?? null, page: positive(query, 'page', 1_000_000, 1), limit: positive(query, 'limit', 100, 50) };
}

const LIST_QUERY_KEYS = ['page', 'limit', 'from', 'to', 'type', 'visibility', 'status', 'spaceId', 'userId', 'hostId', 'latitude', 'longitude', 'radius', 'sortBy'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function text(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) throw invalidQuery(`${key} must be a single non-empty value`, key);
  return value;
}

function integer(query: Record<string, unknown>, key: string, min: number, max: number, fallback: number): number {
  const value = text(query, key);
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) throw invalidQuery(`${key} must be an integer from ${min} to ${max}`, key);
  return number;
}

function decimal(query: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = text(query, key);
  if (value === undefined) return undefined;
  const number = DECIMAL.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number) || number < min || number > max) throw invalidQuery(`${key} must be a number from ${min} to ${max}`, key);
  return number;
}

function date(query: Record<string, unknown>, key: string): Date | null {
  const value = text(query, key);
  if (value === undefined) return null;
  const parsed = ISO_DATETIME.test(value) ? new Date(value) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime())) throw invalidQuery(`${key} must be an ISO 8601 date or date-time`, key);
  return parsed;
}

function choice<T extends string>(query: Record<string, unknown>, key: string, allowed: readonly T[]): T | null {
  const value = text(query, key);
  if (value === undefined) return null;
  if (!(allowed as readonly string[]).includes(value)) throw invalidQuery(`${key} must be one of ${allowed.join(', ')}`, key);
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
  const near = given === 3 ? { latitude: latitude as number, longitude: longitude as number, radius: radius as number } : null;
  const from = date(query, 'from');
  const to = date(query, 'to');
  if (from && to && to.getTime() < from.getTime()) throw invalidQuery('to must not be before from', 'to');
  const spaceId = text(query, 'spaceId');
  if (spaceId !== undefined && !UUID.test(spaceId)) throw invalidQuery('spaceId must be a UUID', 'spaceId');
  const userId = text(query, 'userId');
  if (userId !== undefined && !UUID.test(userId)) throw invalidQuery('userId must be a UUID', 'userId');
  const sortBy = choice(query, 'sortBy', ['startTime', 'distance'] as const) ?? 'startTime';
  if (sortBy === 'distance' && !near) throw invalidQuery('sortBy=distance needs latitude, longitude and radius', 'sortBy');
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
