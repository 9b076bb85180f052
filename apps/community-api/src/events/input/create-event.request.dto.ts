import {
  CreateEventInput,
  EVENT_TYPES,
  OPTION_FIELDS,
  EVENT_VISIBILITIES,
  EventType,
  EventVisibility,
  GeoPointInput,
  invalidBody,
  METADATA_MAX_BYTES,
  parseIsoDateTime,
  zonedLocalToUtc,
} from '@acme/events';
import { isUuid } from '@acme/platform-persistence';
import { oneOf, required } from './input-checks';
import { firstProblem, InputRules, isPlainObject, withField } from './validate-input';

const MAX_HOSTS = 100;
const MAX_CAPACITY = 1_000_000;

/** Characters as the spec counts them: code points, as PostgreSQL's char_length (docs/community-api.md#events). */
const characterCount = (value: string) => [...value].length;
const absent = (value: unknown) => value === undefined || value === null;
const optionalText = (field: string, max: number) => (value: unknown) =>
  absent(value) || (typeof value === 'string' && characterCount(value) <= max)
    ? undefined
    : `${field} must be a string of at most ${max} characters`;

/** An ISO 8601 date-time with an offset; with a zone, a local date-time in that zone too. */
function dateIn(value: unknown, zone: string | null): Date | undefined {
  let date = typeof value === 'string' ? parseIsoDateTime(value) : undefined;
  if (!date && zone && typeof value === 'string') date = zonedLocalToUtc(value, zone);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}
/** The zone `timezone` names when valid (an invalid one is reported before any date that would use it). */
const zoneOf = (event: Record<string, unknown>) =>
  typeof event['timezone'] === 'string' && timezoneProblem(event['timezone']) === undefined ? event['timezone'] : null;

const dateProblem = (field: string, optional: boolean) => (value: unknown, event: Record<string, unknown>) =>
  (optional && absent(value)) || dateIn(value, zoneOf(event))
    ? undefined
    : `${field} must be an ISO 8601 date-time with a time zone offset, or a local date-time with timezone`;

function timezoneProblem(value: unknown): string | undefined {
  const text = optionalText('timezone', 100)(value);
  if (text || absent(value)) return text;
  return isTimeZone(value as string) ? undefined : 'timezone must be an IANA time zone identifier';
}

/**
 * Names found valid: Intl tells only by building a formatter (~100 µs), and a body with a timezone asks up to
 * five times (each date check reads it). Bounded, as case variants of a name are valid too; invalid names are
 * not kept (they end the request with a 400 anyway).
 */
const VALID_ZONES = new Set<string>();
const VALID_ZONES_KEPT = 1000;

function isTimeZone(name: string): boolean {
  if (VALID_ZONES.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return false;
  }
  if (VALID_ZONES.size < VALID_ZONES_KEPT) VALID_ZONES.add(name);
  return true;
}

function urlProblem(value: unknown): string | undefined {
  const text = optionalText('url', 2048)(value);
  if (text || absent(value)) return text;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value as string);
  } catch {
    parsed = undefined;
  }
  return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')
    ? undefined
    : 'url must be an http or https URL';
}

function locationProblem(value: unknown): string | undefined {
  if (absent(value)) return undefined;
  if (!isPlainObject(value)) return 'location must be an object';
  const unknown = Object.keys(value).find((key) => key !== 'latitude' && key !== 'longitude');
  if (unknown !== undefined) return withField(`location.${unknown}`, `location.${unknown} is not allowed`);
  const { latitude, longitude } = value;
  if (typeof latitude !== 'number' || !Number.isFinite(latitude) || latitude < -90 || latitude > 90)
    return withField('location.latitude', 'location.latitude must be a number from -90 to 90');
  if (typeof longitude !== 'number' || !Number.isFinite(longitude) || longitude < -180 || longitude > 180)
    return withField('location.longitude', 'location.longitude must be a number from -180 to 180');
  return undefined;
}

function hostIdsProblem(value: unknown): string | undefined {
  if (absent(value)) return undefined;
  if (!Array.isArray(value) || value.length > MAX_HOSTS)
    return `hostIds must be an array of at most ${MAX_HOSTS} user ids`;
  return value.every((id) => typeof id === 'string' && id.length >= 1 && id.length <= 200)
    ? undefined
    : 'hostIds must hold non-empty strings';
}

function metadataProblem(value: unknown): string | undefined {
  if (absent(value)) return undefined;
  if (!isPlainObject(value)) return 'metadata must be an object';
  return Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES ? 'metadata must be at most 1 MB' : undefined;
}

const booleanProblem = (field: string) => (value: unknown) =>
  value === undefined || typeof value === 'boolean' ? undefined : `${field} must be a boolean`;
const needsUrl = (type: unknown) => type === 'online' || type === 'hybrid';
const needsPlace = (type: unknown) => type === 'physical' || type === 'hybrid';

/** POST .../events, JSON or multipart (normalised to this shape first): the Event of docs/community-api.md#events. */
interface CreateEventBody {
  readonly title: string;
  readonly startTime: string;
  readonly endTime?: string | null;
  readonly timezone?: string | null;
  readonly type: string;
  readonly url?: string | null;
  readonly address?: string | null;
  readonly location?: GeoPointInput | null;
  readonly visibility?: string;
  readonly spaceId?: string | null;
  readonly capacity?: number | null;
  readonly userId?: string | null;
  readonly description?: string | null;
  readonly venueName?: string | null;
  readonly allowMaybe?: boolean;
  readonly guestListVisible?: boolean;
  readonly hostIds?: string[] | null;
  readonly metadata?: Record<string, unknown> | null;
}

/**
 * Every property the body may hold, and every check of it in the spec's order (cross-field rules after every
 * field they read): the first failing one is reported.
 */
const RULES: InputRules = {
  properties: [
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
  ],
  checks: [
    [
      'title',
      (value) =>
        typeof value === 'string' && value.length >= 1 && characterCount(value) <= 300
          ? undefined
          : 'title must be a string of 1 to 300 characters',
    ],
    ['startTime', required('startTime')],
    ['timezone', timezoneProblem],
    ['startTime', dateProblem('startTime', false)],
    ['endTime', dateProblem('endTime', true)],
    [
      'endTime',
      (value, event) => {
        const [start, end] = [
          dateIn(event['startTime'], zoneOf(event)),
          absent(value) ? undefined : dateIn(value, zoneOf(event)),
        ];
        return start && end && end.getTime() < start.getTime() ? 'endTime must not be before startTime' : undefined;
      },
    ],
    ['type', required('type')],
    ['type', oneOf('type', EVENT_TYPES)],
    ['url', urlProblem],
    ['address', optionalText('address', 1000)],
    ['location', locationProblem],
    [
      'url',
      (value, event) =>
        needsUrl(event['type']) && absent(value) ? `url is required for ${String(event['type'])} events` : undefined,
    ],
    [
      'address',
      (value, event) =>
        needsPlace(event['type']) && absent(value) && absent(event['location'])
          ? `address or location is required for ${String(event['type'])} events`
          : undefined,
    ],
    ['visibility', oneOf('visibility', EVENT_VISIBILITIES)],
    ['spaceId', (value) => (absent(value) || isUuid(value) ? undefined : 'spaceId must be a UUID')],
    [
      'spaceId',
      (value, event) =>
        event['visibility'] === 'members' && absent(value)
          ? 'spaceId is required when visibility is members'
          : undefined,
    ],
    [
      'capacity',
      (value) =>
        absent(value) || (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CAPACITY)
          ? undefined
          : `capacity must be a positive integer of at most ${MAX_CAPACITY}`,
    ],
    [
      'userId',
      (value) => optionalText('userId', 200)(value) ?? (value === '' ? 'userId must not be empty' : undefined),
    ],
    ['description', optionalText('description', 20000)],
    ['venueName', optionalText('venueName', 300)],
    ['allowMaybe', booleanProblem('allowMaybe')],
    ['guestListVisible', booleanProblem('guestListVisible')],
    ['hostIds', hostIdsProblem],
    ['metadata', metadataProblem],
  ],
  unknownMessage: (key) => `${key} is not allowed`,
};

/** Multipart sends every field as text: JSON for `location`, `hostIds`, `metadata`; numbers and booleans as their text. */
export function normaliseMultipartFields(fields: Record<string, string>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fields)) {
    if (name === 'location' || name === 'hostIds' || name === 'metadata') {
      try {
        decoded[name] = JSON.parse(text) as unknown;
      } catch {
        throw invalidBody(`${name} must be valid JSON`, name);
      }
    } else if (name === 'capacity') decoded[name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (name === 'allowMaybe' || name === 'guestListVisible')
      decoded[name] = text === 'true' ? true : text === 'false' ? false : text;
    else decoded[name] = text;
  }
  return decoded;
}

/** The validated event as the domain takes it, or 400 `event/invalid-body` naming the first bad field. */
export function toCreateEventInput(fields: Record<string, unknown>): CreateEventInput {
  const problem = firstProblem(fields, RULES);
  if (problem) throw invalidBody(problem.message, problem.field);
  const event = fields as unknown as CreateEventBody;
  const zone = event.timezone ?? null;
  const spaceId = event.spaceId ?? null;
  return {
    title: event.title,
    startTime: dateIn(event.startTime, zone) as Date,
    type: event.type as EventType,
    description: event.description ?? null,
    endTime: absent(event.endTime) ? null : (dateIn(event.endTime, zone) as Date),
    timezone: zone,
    url: event.url ?? null,
    venueName: event.venueName ?? null,
    address: event.address ?? null,
    location: event.location ? { latitude: event.location.latitude, longitude: event.location.longitude } : null,
    spaceId: spaceId?.toLowerCase() ?? null,
    visibility: (event.visibility as EventVisibility | undefined) ?? 'public',
    capacity: event.capacity ?? null,
    allowMaybe: event.allowMaybe ?? true,
    guestListVisible: event.guestListVisible ?? true,
    hostIds: event.hostIds ?? [],
    metadata: event.metadata ?? {},
    userId: event.userId ?? null,
  };
}

/**
 * The create request of either encoding as the domain takes it: the event fields validated (multipart text
 * normalised first), the image options passed on as sent.
 */
export function toCreateEventRequest(
  body: unknown,
  encoding: 'json' | 'multipart',
): { input: CreateEventInput; imageOptions: { cover?: unknown; gallery?: unknown } } {
  if (!isPlainObject(body)) throw invalidBody('The body must be a JSON object');
  const { [OPTION_FIELDS.cover]: cover, [OPTION_FIELDS.gallery]: gallery, ...fields } = body;
  const normalised = encoding === 'multipart' ? normaliseMultipartFields(fields as Record<string, string>) : fields;
  return { input: toCreateEventInput(normalised), imageOptions: { cover, gallery } };
}
