import { ApiProperty } from '@nestjs/swagger';

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
    description:
      'invalid_query_string, invalid_body, invalid_uri, invalid_token, invalid_signature, client_not_global, insufficient_scope, ' +
      'inexistent_rate_limit_policy, rate_limit_policy_conflict, inexistent_client, client_conflict, inexistent_client_grant, ' +
      'client_grant_conflict, too_many_requests, not_found',
  })
  readonly errorCode!: string;
}
