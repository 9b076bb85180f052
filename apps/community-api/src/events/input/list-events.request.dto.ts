import { EVENT_TYPES, EVENT_VISIBILITIES, EventType, EventVisibility, invalidQuery, ListEventsQuery, MAX_RADIUS_METRES } from '@acme/events';
import { IsDateText, IsDecimalText, IsIntegerText, IsOneOf, IsSingleValue, IsUuidText, parseDateText, Satisfies } from './input-validators';
import { isPlainObject, validateInput } from './validate-input';

const nearGiven = (query: Record<string, unknown>) => ['latitude', 'longitude', 'radius'].filter((key) => query[key] !== undefined).length;

/** GET .../events query string (all values are text): paging, a start-time window, filters and a radius in metres. */
export class ListEventsQueryDto {
  @IsSingleValue() @IsIntegerText(1, 1_000_000) readonly page?: string;
  @IsSingleValue() @IsIntegerText(1, 100) readonly limit?: string;
  @IsSingleValue() @IsDateText() readonly from?: string;
  @IsSingleValue()
  @IsDateText()
  @Satisfies('notBeforeFrom', (to, query) => {
    const [start, end] = [typeof query['from'] === 'string' ? parseDateText(query['from']) : undefined, typeof to === 'string' ? parseDateText(to) : undefined];
    return start && end && end.getTime() < start.getTime() ? 'to must not be before from' : undefined;
  })
  readonly to?: string;
  @IsSingleValue() @IsOneOf(EVENT_TYPES) readonly type?: string;
  @IsSingleValue() @IsOneOf(EVENT_VISIBILITIES) readonly visibility?: string;
  @IsSingleValue() @IsOneOf(['active', 'cancelled']) readonly status?: string;
  @IsSingleValue() @IsUuidText() readonly spaceId?: string;
  @IsSingleValue() @IsUuidText() readonly userId?: string;
  @IsSingleValue() readonly hostId?: string;
  @IsSingleValue() @IsDecimalText(-90, 90) readonly latitude?: string;
  @IsSingleValue() @IsDecimalText(-180, 180) readonly longitude?: string;
  @IsSingleValue()
  @IsDecimalText(0, MAX_RADIUS_METRES)
  @Satisfies('nearTogether', (_, query) => ([0, 3].includes(nearGiven(query)) ? undefined : 'latitude, longitude and radius go together'))
  readonly radius?: string;
  @IsSingleValue()
  @IsOneOf(['startTime', 'distance'])
  @Satisfies('distanceNeedsNear', (sortBy, query) => (sortBy === 'distance' && nearGiven(query) !== 3 ? 'sortBy=distance needs latitude, longitude and radius' : undefined))
  readonly sortBy?: string;
}

const RULES = {
  order: ['latitude', 'longitude', 'radius', 'from', 'to', 'spaceId', 'userId', 'sortBy', 'page', 'limit', 'type', 'visibility', 'status', 'hostId'],
  constraints: ['singleValue', 'integerText', 'decimalText', 'dateText', 'oneOf', 'uuidText', 'nearTogether', 'notBeforeFrom', 'distanceNeedsNear'],
  unknownMessage: (key: string) => `${key} is not a known query parameter`,
} as const;

/** The validated query as the events domain takes it, or 400 `event/invalid-query` naming the first bad parameter. */
export function toListEventsQuery(raw: unknown): ListEventsQuery {
  const result = validateInput(ListEventsQueryDto, isPlainObject(raw) ? raw : {}, RULES);
  if ('problem' in result) throw invalidQuery(result.problem.message, result.problem.field);
  const query = result.value;
  const near = query.latitude !== undefined && query.longitude !== undefined && query.radius !== undefined ? { latitude: Number(query.latitude), longitude: Number(query.longitude), radius: Number(query.radius) } : null;
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
