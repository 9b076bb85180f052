import {
  EVENT_TYPES,
  EVENT_VISIBILITIES,
  EventType,
  EventVisibility,
  ListEventsQuery,
  MAX_RADIUS_METRES,
} from '@acme/events';
import { ReportsFirstProblem, Satisfies } from '@acme/platform-errors';
import { dateText, decimalText, integerText, oneOf, parseDateText, single, uuidText } from './query-text';

const nearGiven = (query: Record<string, unknown>) =>
  ['latitude', 'longitude', 'radius'].filter((key) => query[key] !== undefined).length;

const radiusProblem = (value: unknown, query: Record<string, unknown>) =>
  single('radius', decimalText('radius', 0, MAX_RADIUS_METRES))(value) ??
  ([0, 3].includes(nearGiven(query)) ? undefined : 'latitude, longitude and radius go together');

function toProblem(value: unknown, query: Record<string, unknown>): string | undefined {
  const own = single('to', dateText('to'))(value);
  if (own) return own;
  const [start, end] = [
    typeof query['from'] === 'string' ? parseDateText(query['from']) : undefined,
    typeof value === 'string' ? parseDateText(value) : undefined,
  ];
  return start && end && end.getTime() < start.getTime() ? 'to must not be before from' : undefined;
}

const sortByProblem = (value: unknown, query: Record<string, unknown>) =>
  single('sortBy', oneOf('sortBy', ['startTime', 'distance']))(value) ??
  (value === 'distance' && nearGiven(query) !== 3 ? 'sortBy=distance needs latitude, longitude and radius' : undefined);

/**
 * GET .../events query string: paging, a start-time window, filters and a radius in metres. Parameters are
 * declared in the spec's order of checks; the first problem is answered (`event/invalid-query`). Documented by
 * the controller's `@ApiQuery` list.
 */
@ReportsFirstProblem({ unknownKey: (key) => `${key} is not a known query parameter` })
export class ListEventsRequest {
  @Satisfies('latitude', single('latitude', decimalText('latitude', -90, 90))) readonly latitude?: string;
  @Satisfies('longitude', single('longitude', decimalText('longitude', -180, 180))) readonly longitude?: string;
  @Satisfies('radius', radiusProblem) readonly radius?: string;
  @Satisfies('from', single('from', dateText('from'))) readonly from?: string;
  @Satisfies('to', toProblem) readonly to?: string;
  @Satisfies('spaceId', single('spaceId', uuidText('spaceId'))) readonly spaceId?: string;
  @Satisfies('userId', single('userId', uuidText('userId'))) readonly userId?: string;
  @Satisfies('sortBy', sortByProblem) readonly sortBy?: string;
  @Satisfies('page', single('page', integerText('page', 1, 1_000_000))) readonly page?: string;
  @Satisfies('limit', single('limit', integerText('limit', 1, 100))) readonly limit?: string;
  @Satisfies('type', single('type', oneOf('type', EVENT_TYPES))) readonly type?: string;
  @Satisfies('visibility', single('visibility', oneOf('visibility', EVENT_VISIBILITIES))) readonly visibility?: string;
  @Satisfies('status', single('status', oneOf('status', ['active', 'cancelled']))) readonly status?: string;
  @Satisfies('hostId', single('hostId')) readonly hostId?: string;
}

/** The validated query as the events domain takes it. */
export function toListEventsQuery(query: ListEventsRequest): ListEventsQuery {
  const near =
    query.latitude !== undefined && query.longitude !== undefined && query.radius !== undefined
      ? { latitude: Number(query.latitude), longitude: Number(query.longitude), radius: Number(query.radius) }
      : null;
  return {
    page: query.page === undefined ? 1 : Number(query.page),
    limit: query.limit === undefined ? 20 : Number(query.limit),
    from: query.from === undefined ? null : (parseDateText(query.from) as Date),
    to: query.to === undefined ? null : (parseDateText(query.to) as Date),
    type: (query.type as EventType | undefined) ?? null,
    visibility: (query.visibility as EventVisibility | undefined) ?? null,
    status: (query.status as 'active' | 'cancelled' | undefined) ?? null,
    spaceId: query.spaceId?.toLowerCase() ?? null,
    userId: query.userId?.toLowerCase() ?? null,
    hostId: query.hostId ?? null,
    near,
    sortBy: (query.sortBy as 'startTime' | 'distance' | undefined) ?? 'startTime',
  };
}
