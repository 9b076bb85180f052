import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  CreateEventInput,
  EVENT_TYPES,
  EVENT_VISIBILITIES,
  EventType,
  EventVisibility,
  EventErrors,
  METADATA_MAX_BYTES,
  OPTION_FIELDS,
  parseIsoDateTime,
  zonedLocalToUtc,
} from '@acme/events';
import {
  characterCount,
  CodePointLength,
  isPlainObject,
  MaxCodePoints,
  ReportsFirstProblem,
  Satisfies,
  SatisfiesNested,
  validateBody,
} from '@acme/platform-errors';
import { isUuid } from '@acme/platform-persistence';
import { imageOptionsSchema } from './image-options.request.dto';

const MAX_HOSTS = 100;
const MAX_CAPACITY = 1_000_000;

const absent = (value: unknown) => value === undefined || value === null;
const optionalText = (field: string, max: number) => (value: unknown) =>
  absent(value) || (typeof value === 'string' && characterCount(value) <= max)
    ? undefined
    : `${field} must be a string of at most ${max} characters`;
const isDefined = (_: object, value: unknown) => value !== undefined;

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

/** `{latitude, longitude}` and nothing else; a problem inside names its own field (`location.latitude`). */
function locationCheck(value: unknown): { field: string; message: string } | undefined {
  if (absent(value)) return undefined;
  if (!isPlainObject(value)) return { field: 'location', message: 'location must be an object' };
  const unknown = Object.keys(value).find((key) => key !== 'latitude' && key !== 'longitude');
  if (unknown !== undefined) return { field: `location.${unknown}`, message: `location.${unknown} is not allowed` };
  const { latitude, longitude } = value;
  if (typeof latitude !== 'number' || !Number.isFinite(latitude) || latitude < -90 || latitude > 90)
    return { field: 'location.latitude', message: 'location.latitude must be a number from -90 to 90' };
  if (typeof longitude !== 'number' || !Number.isFinite(longitude) || longitude < -180 || longitude > 180)
    return { field: 'location.longitude', message: 'location.longitude must be a number from -180 to 180' };
  return undefined;
}

const needsUrl = (type: unknown) => type === 'online' || type === 'hybrid';
const needsPlace = (type: unknown) => type === 'physical' || type === 'hybrid';

/** startTime is required first; its format is judged after timezone (a bad zone is the problem reported). */
function startTimeProblem(value: unknown, event: Record<string, unknown>): string | undefined {
  if (value === undefined) return 'startTime is required';
  return timezoneProblem(event['timezone']) !== undefined ? undefined : dateProblem('startTime', false)(value, event);
}

function endTimeProblem(value: unknown, event: Record<string, unknown>): string | undefined {
  const format = dateProblem('endTime', true)(value, event);
  if (format || absent(value)) return format;
  const [start, end] = [dateIn(event['startTime'], zoneOf(event)), dateIn(value, zoneOf(event))];
  return start && end && end.getTime() < start.getTime() ? 'endTime must not be before startTime' : undefined;
}

function typeProblem(value: unknown): string | undefined {
  if (value === undefined) return 'type is required';
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value)
    ? undefined
    : `type must be one of ${EVENT_TYPES.join(', ')}`;
}

/** The url's own format, then (once address and location are found well-formed) whether the type needs one. */
function urlOrRequired(value: unknown, event: Record<string, unknown>): string | undefined {
  const own = urlProblem(value);
  if (own || !absent(value) || !needsUrl(event['type'])) return own;
  return optionalText('address', 1000)(event['address']) === undefined && locationCheck(event['location']) === undefined
    ? `url is required for ${String(event['type'])} events`
    : undefined;
}

function addressProblem(value: unknown, event: Record<string, unknown>): string | undefined {
  const own = optionalText('address', 1000)(value);
  if (own) return own;
  return needsPlace(event['type']) && absent(value) && absent(event['location'])
    ? `address or location is required for ${String(event['type'])} events`
    : undefined;
}

function spaceIdProblem(value: unknown, event: Record<string, unknown>): string | undefined {
  if (!absent(value)) return isUuid(value) ? undefined : 'spaceId must be a UUID';
  return event['visibility'] === 'members' ? 'spaceId is required when visibility is members' : undefined;
}

const HOST_IDS = `hostIds must be an array of at most ${MAX_HOSTS} user ids`;
const hostIdsText = (value: unknown) =>
  Array.isArray(value) &&
  value.length <= MAX_HOSTS &&
  !value.every((id) => typeof id === 'string' && id.length >= 1 && id.length <= 200)
    ? 'hostIds must hold non-empty strings'
    : undefined;
const metadataSize = (value: unknown) =>
  isPlainObject(value) && Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES
    ? 'metadata must be at most 1 MB'
    : undefined;
const CAPACITY = `capacity must be a positive integer of at most ${MAX_CAPACITY}`;

/**
 * POST .../events, JSON or multipart (multipart text decoded first): the Event of docs/community-api.md#events.
 * One problem is answered, in the spec's order: properties are declared in that order, and a rule that the
 * spec checks after a later property waits for it (url's and address's "required for", startTime's format).
 * cover, gallery and their options are multipart parts handled apart; they are documented here, not accepted.
 */
@ReportsFirstProblem({ unknownKey: (key) => `${key} is not allowed`, notAnObject: 'The body must be a JSON object' })
export class CreateEventRequest {
  @ApiProperty({ minLength: 1, maxLength: 300 })
  @CodePointLength(1, 300, { message: 'title must be a string of 1 to 300 characters' })
  readonly title: string;

  @ApiProperty({ format: 'date-time', description: 'RSVPs close at this moment' })
  @Satisfies('startTime', startTimeProblem)
  readonly startTime: string;

  @ApiPropertyOptional({ description: 'IANA time zone' })
  @Satisfies('timezone', timezoneProblem)
  readonly timezone?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @Satisfies('endTime', endTimeProblem)
  readonly endTime?: string;

  @ApiProperty({ enum: ['online', 'physical', 'hybrid'] })
  @Satisfies('type', typeProblem)
  readonly type: string;

  @ApiPropertyOptional({ description: 'Required for online and hybrid' })
  @Satisfies('url', urlOrRequired)
  readonly url?: string;

  @ApiPropertyOptional({ description: 'physical/hybrid: address or location required' })
  @Satisfies('address', addressProblem)
  readonly address?: string;

  @ApiPropertyOptional({
    description: '{latitude, longitude}; a JSON string on multipart',
    type: 'object',
    additionalProperties: true,
  })
  @SatisfiesNested('location', locationCheck)
  readonly location?: { latitude: number; longitude: number } | null;

  @ApiPropertyOptional({ enum: ['public', 'members', 'invite'], default: 'public' })
  @ValidateIf(isDefined)
  @IsIn(EVENT_VISIBILITIES, { message: `visibility must be one of ${EVENT_VISIBILITIES.join(', ')}` })
  readonly visibility?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Satisfies('spaceId', spaceIdProblem)
  readonly spaceId?: string;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @IsInt({ message: CAPACITY })
  @Min(1, { message: CAPACITY })
  @Max(MAX_CAPACITY, { message: CAPACITY })
  readonly capacity?: number;

  @ApiPropertyOptional({ description: 'service or master key only' })
  @IsOptional()
  @MaxCodePoints(200, { message: 'userId must be a string of at most 200 characters' })
  @IsNotEmpty({ message: 'userId must not be empty' })
  readonly userId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @MaxCodePoints(20000, { message: 'description must be a string of at most 20000 characters' })
  readonly description?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @MaxCodePoints(300, { message: 'venueName must be a string of at most 300 characters' })
  readonly venueName?: string;

  @ApiPropertyOptional({ default: true })
  @ValidateIf(isDefined)
  @IsBoolean({ message: 'allowMaybe must be a boolean' })
  readonly allowMaybe?: boolean;

  @ApiPropertyOptional({ default: true })
  @ValidateIf(isDefined)
  @IsBoolean({ message: 'guestListVisible must be a boolean' })
  readonly guestListVisible?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'a JSON string on multipart' })
  @IsOptional()
  @IsArray({ message: HOST_IDS })
  @ArrayMaxSize(MAX_HOSTS, { message: HOST_IDS })
  @Satisfies('hostIdsText', hostIdsText)
  readonly hostIds?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'up to 1 MB' })
  @IsOptional()
  @IsObject({ message: 'metadata must be an object' })
  @Satisfies('metadataSize', metadataSize)
  readonly metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'multipart only; needs cover.options' })
  readonly cover?: unknown;

  @ApiPropertyOptional(
    imageOptionsSchema('cover.options', {
      mode: 'exact-dimensions',
      dimensions: { thumb: { width: 150, height: 150 }, card: { width: 600, height: 400 } },
    }),
  )
  readonly coverOptions?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'binary' },
    description: 'up to 10; needs gallery.options',
  })
  readonly gallery?: unknown;

  @ApiPropertyOptional(
    imageOptionsSchema('gallery.options', {
      mode: 'aspect-ratio-width-based',
      aspectRatio: { width: 4, height: 3 },
      widths: { small: 400, large: 1200 },
    }),
  )
  readonly galleryOptions?: string;
}

/** Multipart sends every field as text: JSON for `location`, `hostIds`, `metadata`; numbers and booleans as their text. */
export function normaliseMultipartFields(fields: Record<string, string>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fields)) {
    if (name === 'location' || name === 'hostIds' || name === 'metadata') {
      try {
        decoded[name] = JSON.parse(text) as unknown;
      } catch {
        throw EventErrors.invalidInput(`${name} must be valid JSON`, name);
      }
    } else if (name === 'capacity') decoded[name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (name === 'allowMaybe' || name === 'guestListVisible')
      decoded[name] = text === 'true' ? true : text === 'false' ? false : text;
    else decoded[name] = text;
  }
  return decoded;
}

/** The validated event as the domain takes it (defaults filled, local times in UTC, ids lower-cased). */
export function toCreateEventInput(event: CreateEventRequest): CreateEventInput {
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
 * The create request of either encoding as the domain takes it: the event fields validated by the global pipe's
 * rules for CreateEventRequest (multipart text decoded first), the image options passed on as sent.
 */
export async function toCreateEventRequest(
  body: unknown,
  encoding: 'json' | 'multipart',
): Promise<{ input: CreateEventInput; imageOptions: { cover?: unknown; gallery?: unknown } }> {
  // Not an object: the pipe answers it as it answers any other body.
  if (!isPlainObject(body))
    return { input: toCreateEventInput(await validateBody(CreateEventRequest, body)), imageOptions: {} };
  const { [OPTION_FIELDS.cover]: cover, [OPTION_FIELDS.gallery]: gallery, ...fields } = body;
  const decoded = encoding === 'multipart' ? normaliseMultipartFields(fields as Record<string, string>) : fields;
  return {
    input: toCreateEventInput(await validateBody(CreateEventRequest, decoded)),
    imageOptions: { cover, gallery },
  };
}
