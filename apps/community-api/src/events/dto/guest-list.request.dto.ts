import { GuestListQuery, RSVP_STATUSES, RsvpStatus } from '@acme/events';
import { ReportsFirstProblem, Satisfies } from '@acme/platform-errors';
import { integerText, oneOf } from './query-text';

/** GET .../events/:id/rsvps query string (`event/invalid-query`); documented by the controller's `@ApiQuery` list. */
@ReportsFirstProblem({ unknownKey: (key) => `${key} is not a known query parameter` })
export class GuestListRequest {
  @Satisfies('status', oneOf('status', RSVP_STATUSES)) readonly status?: string;
  @Satisfies('page', integerText('page', 1, 1_000_000)) readonly page?: string;
  @Satisfies('limit', integerText('limit', 1, 100)) readonly limit?: string;
}

export function toGuestListQuery(query: GuestListRequest): GuestListQuery {
  return {
    status: (query.status as RsvpStatus | undefined) ?? null,
    page: query.page === undefined ? 1 : Number(query.page),
    limit: query.limit === undefined ? 50 : Number(query.limit),
  };
}
