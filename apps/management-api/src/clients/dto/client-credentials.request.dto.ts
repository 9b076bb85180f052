import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { MaxCodePoints } from '@acme/platform-errors';
import { ASSERTION_ALGORITHMS } from '@acme/oauth';
import { ClientIdParam } from './clients.request.dto';

export class CreateClientCredentialRequest {
  @ApiProperty({ enum: ['public_key'] })
  @IsIn(['public_key'])
  readonly credential_type!: 'public_key';

  @ApiPropertyOptional({ maxLength: 128 })
  @IsString()
  @MaxCodePoints(128)
  @IsOptional()
  readonly name?: string;

  @ApiProperty({
    description: 'PEM of the RSA public key (SPKI) that verifies the client assertions',
    maxLength: 10000,
  })
  @IsString()
  @MaxCodePoints(10000)
  readonly pem!: string;

  @ApiPropertyOptional({ enum: ASSERTION_ALGORITHMS, default: 'RS256' })
  @IsIn(ASSERTION_ALGORITHMS)
  @IsOptional()
  readonly alg?: string;
}

export class ClientCredentialParams extends ClientIdParam {
  @ApiProperty({ maxLength: 64 })
  @Matches(/^cred_[0-9a-f]{24}$/, { message: 'credential_id is not a credential id' })
  readonly credential_id!: string;
}
