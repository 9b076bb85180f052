import { invalidBody, RSVP_STATUSES, RsvpStatus, SetRsvpInput, WithdrawRsvpInput } from '@acme/events';
import { oneOf, required } from './input-checks';
import { firstProblem, InputCheck, InputRules, isPlainObject } from './validate-input';

const codePoints = (text: string) => [...text].length;
const userIdCheck: InputCheck = [
  'userId',
  (value) =>
    value === undefined || value === null || (typeof value === 'string' && codePoints(value) <= 200)
      ? undefined
      : 'userId must be a string of at most 200 characters',
];
const unknownMessage = (key: string) => `${key} is not allowed`;

/** POST .../events/:id/rsvp `{status, userId?}`; `userId` only with a service or master key (the domain decides). */
const SET_RULES: InputRules = {
  properties: ['status', 'userId'],
  checks: [['status', required('status')], ['status', oneOf('status', RSVP_STATUSES)], userIdCheck],
  unknownMessage,
};

/** DELETE .../events/:id/rsvp `{userId?}` (the body is optional). */
const WITHDRAW_RULES: InputRules = { properties: ['userId'], checks: [userIdCheck], unknownMessage };

function validBody(rules: InputRules, body: unknown): { status?: string; userId?: string | null } {
  if (!isPlainObject(body)) throw invalidBody('The body must be a JSON object');
  const problem = firstProblem(body, rules);
  if (problem) throw invalidBody(problem.message, problem.field);
  return body;
}

export function toSetRsvpInput(body: unknown): SetRsvpInput {
  const valid = validBody(SET_RULES, body);
  return { status: valid.status as RsvpStatus, userId: valid.userId ?? undefined };
}

export function toWithdrawRsvpInput(body: unknown): WithdrawRsvpInput {
  const valid = validBody(WITHDRAW_RULES, body === undefined || body === null ? {} : body);
  return { userId: valid.userId ?? undefined };
}
