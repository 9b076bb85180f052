import { ApiProperty } from '@nestjs/swagger';
import { PUBLISHED_WIRE_CODES } from '../community-wire-codes';

/**
 * Every community API error (Replyke shape): `{error, code, field?}`; the image errors (413, 422) are
 * `{code, message}` as the spec gives them.
 */
export class CommunityErrorBody {
  @ApiProperty({
    example: 'request/invalid-body',
    description: 'A stable wire code, `area/what`',
    enum: PUBLISHED_WIRE_CODES,
  })
  readonly code!: string;

  @ApiProperty({ required: false, example: 'email must be an email' })
  readonly error?: string;

  @ApiProperty({ required: false, description: 'The offending field of a validation error' })
  readonly field?: string;

  @ApiProperty({ required: false, description: 'The text of a 413 or 422 image error' })
  readonly message?: string;
}
