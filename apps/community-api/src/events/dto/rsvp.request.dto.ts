import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { RSVP_STATUSES, RsvpStatus, SetRsvpInput, WithdrawRsvpInput } from '@acme/events';
import { MaxCodePoints, ReportsFirstProblem, Satisfies } from '@acme/platform-errors';

const USER_ID = 'userId must be a string of at most 200 characters';
const NOT_ALLOWED = (key: string) => `${key} is not allowed`;

const statusProblem = (value: unknown) =>
  value === undefined
    ? 'status is required'
    : typeof value === 'string' && (RSVP_STATUSES as readonly string[]).includes(value)
      ? undefined
      : `status must be one of ${RSVP_STATUSES.join(', ')}`;

/** POST .../events/:id/rsvp `{status, userId?}`; `userId` only with a service or master key (the domain decides). */
@ReportsFirstProblem({ unknownKey: NOT_ALLOWED, notAnObject: 'The body must be a JSON object' })
export class RsvpRequest {
  @ApiProperty({ enum: ['going', 'maybe', 'not_going'] })
  @Satisfies('status', statusProblem)
  readonly status: string;

  @ApiPropertyOptional({ description: 'service or master key only' })
  @IsOptional()
  @MaxCodePoints(200, { message: USER_ID })
  readonly userId?: string;
}

/** DELETE .../events/:id/rsvp `{userId?}` (the body is optional). */
@ReportsFirstProblem({ unknownKey: NOT_ALLOWED, notAnObject: 'The body must be a JSON object', absentIsEmpty: true })
export class WithdrawRsvpRequest {
  @ApiPropertyOptional({ description: 'service or master key only' })
  @IsOptional()
  @MaxCodePoints(200, { message: USER_ID })
  readonly userId?: string;
}

export const toSetRsvpInput = (body: RsvpRequest): SetRsvpInput => ({
  status: body.status as RsvpStatus,
  userId: body.userId ?? undefined,
});

export const toWithdrawRsvpInput = (body: WithdrawRsvpRequest): WithdrawRsvpInput => ({
  userId: body.userId ?? undefined,
});
