import { GuestListQuery, invalidQuery, RSVP_STATUSES, RsvpStatus } from '@acme/events';
import { IsIntegerText, IsOneOf } from './input-validators';
import { isPlainObject, validateInput } from './validate-input';

/** GET .../events/:id/rsvps query string. */
export class GuestListQueryDto {
  @IsOneOf(RSVP_STATUSES) readonly status?: string;
  @IsIntegerText(1, 1_000_000) readonly page?: string;
  @IsIntegerText(1, 100) readonly limit?: string;
}

const RULES = {
  order: ['status', 'page', 'limit'],
  constraints: ['oneOf', 'integerText'],
  unknownMessage: (key: string) => `${key} is not a known query parameter`,
} as const;

export function toGuestListQuery(raw: unknown): GuestListQuery {
  const result = validateInput(GuestListQueryDto, isPlainObject(raw) ? raw : {}, RULES);
  if ('problem' in result) throw invalidQuery(result.problem.message, result.problem.field);
  const query = result.value;
  return {
    status: (query.status as RsvpStatus | undefined) ?? null,
    page: query.page === undefined ? 1 : Number(query.page),
    limit: query.limit === undefined ? 50 : Number(query.limit),
  };
}
