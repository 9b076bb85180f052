import { ApiProperty } from '@nestjs/swagger';
import { RUM_ERRORS } from '../error-presenter';

class RumError {
  // Exactly the codes the presenter sends (error-enum.spec.ts compares it with openapi.json).
  @ApiProperty({
    example: 'InvalidParameter',
    enum: Object.keys(RUM_ERRORS),
    description:
      'InvalidParameter 400 (404 for an unknown route, 413 for a body over the limit); Unauthorized 401/403; RequestTooFrequently 429; InternalError 500, or 503 with Retry-After while a dependency is unavailable',
  })
  readonly code!: string;
  @ApiProperty() readonly message!: string;
}

/** Every RUM API error (Flashduty shape), with the request id also sent as `Service-Request-Id`. */
export class RumErrorBody {
  @ApiProperty() readonly request_id!: string;
  @ApiProperty({ type: RumError }) readonly error!: RumError;
}
