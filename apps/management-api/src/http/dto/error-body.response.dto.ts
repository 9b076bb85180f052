import { ApiProperty } from '@nestjs/swagger';
import { PUBLISHED_ERROR_CODES } from '../error-presenter';

/** Every management API error (Auth0 shape). */
export class ManagementErrorBody {
  @ApiProperty({ example: 404 })
  readonly statusCode!: number;

  @ApiProperty({ example: 'Not Found' })
  readonly error!: string;

  @ApiProperty({ example: 'The rate limit policy does not exist: rlp_x' })
  readonly message!: string;

  @ApiProperty({
    example: 'inexistent_rate_limit_policy',
    description: 'Every code the API answers (error-enum.spec.ts compares this enum with the presenter)',
    enum: PUBLISHED_ERROR_CODES,
  })
  readonly errorCode!: string;
}
