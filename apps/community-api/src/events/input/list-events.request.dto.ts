import {
  EVENT_TYPES,
  EVENT_VISIBILITIES,
  EventType,
  EventVisibility,
  invalidQuery,
  ListEventsQuery,
  MAX_RADIUS_METRES,
} from '@acme/events';
import { dateText, decimalText, integerText, oneOf, parseDateText, singleValue, uuidText } from './input-checks';
import { firstProblem, InputCheck, InputRules, isPlainObject } from './validate-input';

const nearGiven = (query: Record<string, unknown>) =>
  ['latitude', 'longitude', 'radius'].filter((key) => query[key] !== undefined).length;

/** Each parameter sent once, then its own rule (all values are text). */
const parameter = (name: string, ...checks: ((value: unknown) => string | undefined)[]): InputCheck[] =>
  [singleValue(name), ...checks].map((check) => [name, check]);

/** GET .../events query string: paging, a start-time window, filters and a radius in metres; checked in the spec's order. */
const RULES: InputRules = {
  properties: [
    'latitude',
    'longitude',
    'radius',
    'from',
    'to',
    'spaceId',
    'userId',
    'sortBy',
    'page',
    'limit',
    'type',
    'visibility',
    'status',
    'hostId',
  ],
  checks: [
    ...parameter('latitude', decimalText('latitude', -90, 90)),
    ...parameter('longitude', decimalText('longitude', -180, 180)),
    ...parameter('radius', decimalText('radius', 0, MAX_RADIUS_METRES)),
    [
      'radius',
      (_, query) => ([0, 3].includes(nearGiven(query)) ? undefined : 'latitude, longitude and radius go together'),
    ],
    ...parameter('from', dateText('from')),
    ...parameter('to', dateText('to')),
    [
      'to',
      (to, query) => {
        const [start, end] = [
          typeof query['from'] === 'string' ? parseDateText(query['from']) : undefined,
          typeof to === 'string' ? parseDateText(to) : undefined,
        ];
        return start && end && end.getTime() < start.getTime() ? 'to must not be before from' : undefined;
      },
    ],
    ...parameter('spaceId', uuidText('spaceId')),
    ...parameter('userId', uuidText('userId')),
    ...parameter('sortBy', oneOf('sortBy', ['startTime', 'distance'])),
    [
      'sortBy',
      (sortBy, query) =>
        sortBy === 'distance' && nearGiven(query) !== 3
          ? 'sortBy=distance needs latitude, longitude and radius'
          : undefined,
    ],
    ...parameter('page', integerText('page', 1, 1_000_000)),
    ...parameter('limit', integerText('limit', 1, 100)),
    ...parameter('type', oneOf('type', EVENT_TYPES)),
    ...parameter('visibility', oneOf('visibility', EVENT_VISIBILITIES)),
    ...parameter('status', oneOf('status', ['active', 'cancelled'])),
    ...parameter('hostId'),
  ],
  unknownMessage: (key) => `${key} is not a known query parameter`,
};

/** The validated query as the events domain takes it, or 400 `event/invalid-query` naming the first bad parameter. */
export function toListEventsQuery(raw: unknown): ListEventsQuery {
  const query = (isPlainObject(raw) ? raw : {}) as Record<string, string | undefined>;
  const problem = firstProblem(query, RULES);
  if (problem) throw invalidQuery(problem.message, problem.field);
  const near =
    query['latitude'] !== undefined && query['longitude'] !== undefined && query['radius'] !== undefined
      ? { latitude: Number(query['latitude']), longitude: Number(query['longitude']), radius: Number(query['radius']) }
      : null;
  return {
    page: query['page'] === undefined ? 1 : Number(query['page']),
    limit: query['limit'] === undefined ? 20 : Number(query['limit']),
    from: query['from'] === undefined ? null : (parseDateText(query['from']) as Date),
    to: query['to'] === undefined ? null : (parseDateText(query['to']) as Date),
    type: (query['type'] as EventType | undefined) ?? null,
    visibility: (query['visibility'] as EventVisibility | undefined) ?? null,
    status: (query['status'] as 'active' | 'cancelled' | undefined) ?? null,
    spaceId: query['spaceId']?.toLowerCase() ?? null,
    userId: query['userId']?.toLowerCase() ?? null,
    hostId: query['hostId'] ?? null,
    near,
    sortBy: (query['sortBy'] as 'startTime' | 'distance' | undefined) ?? 'startTime',
  };
}
