import { invalidBody, RSVP_STATUSES, RsvpStatus, SetRsvpInput, WithdrawRsvpInput } from '@acme/events';
import { IsOneOf, IsPresent, Satisfies } from './input-validators';
import { isPlainObject, validateInput } from './validate-input';

const codePoints = (text: string) => [...text].length;
const optionalUserId = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && codePoints(value) <= 200) ? undefined : 'userId must be a string of at most 200 characters';

/** POST .../events/:id/rsvp; `userId` only with a service or master key (the domain decides). */
export class SetRsvpBody {
  @IsPresent() @IsOneOf(RSVP_STATUSES) readonly status: string;
  @Satisfies('userIdText', optionalUserId) readonly userId?: string | null;
}

/** DELETE .../events/:id/rsvp (the body is optional). */
export class WithdrawRsvpBody {
  @Satisfies('userIdText', optionalUserId) readonly userId?: string | null;
}

const rules = (order: readonly string[]) => ({
  order,
  constraints: ['required', 'oneOf', 'userIdText'],
  unknownMessage: (key: string) => `${key} is not allowed`,
});

function validateBody<T extends object>(dto: new () => T, order: readonly string[], body: unknown): T {
  if (!isPlainObject(body)) throw invalidBody('The body must be a JSON object');
  const result = validateInput(dto, body, rules(order));
  if ('problem' in result) throw invalidBody(result.problem.message, result.problem.field);
  return result.value;
}

export function toSetRsvpInput(body: unknown): SetRsvpInput {
  const valid = validateBody(SetRsvpBody, ['status', 'userId'], body);
  return { status: valid.status as RsvpStatus, userId: valid.userId ?? undefined };
}

export function toWithdrawRsvpInput(body: unknown): WithdrawRsvpInput {
  const valid = validateBody(WithdrawRsvpBody, ['userId'], body === undefined || body === null ? {} : body);
  return { userId: valid.userId ?? undefined };
}
