import { ApiProperty } from '@nestjs/swagger';

class RumError {
  @ApiProperty({ example: 'InvalidParameter' }) readonly code!: string;
  @ApiProperty() readonly message!: string;
}

/** Every RUM API error (Flashduty shape), with the request id also sent as `Service-Request-Id`. */
export class RumErrorBody {
  @ApiProperty() readonly request_id!: string;
  @ApiProperty({ type: RumError }) readonly error!: RumError;
}
