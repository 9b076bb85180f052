import { GuestListQuery, invalidQuery, RSVP_STATUSES, RsvpStatus } from '@acme/events';
import { integerText, oneOf } from './input-checks';
import { firstProblem, InputRules, isPlainObject } from './validate-input';

/** GET .../events/:id/rsvps query string. */
const RULES: InputRules = {
  properties: ['status', 'page', 'limit'],
  checks: [
    ['status', oneOf('status', RSVP_STATUSES)],
    ['page', integerText('page', 1, 1_000_000)],
    ['limit', integerText('limit', 1, 100)],
  ],
  unknownMessage: (key) => `${key} is not a known query parameter`,
};

export function toGuestListQuery(raw: unknown): GuestListQuery {
  const query = (isPlainObject(raw) ? raw : {}) as Record<string, string | undefined>;
  const problem = firstProblem(query, RULES);
  if (problem) throw invalidQuery(problem.message, problem.field);
  return {
    status: (query['status'] as RsvpStatus | undefined) ?? null,
    page: query['page'] === undefined ? 1 : Number(query['page']),
    limit: query['limit'] === undefined ? 50 : Number(query['limit']),
  };
}
