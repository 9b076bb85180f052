import { ApiProperty } from '@nestjs/swagger';
import { ClientCredentialView } from '@acme/oauth';

export class ClientCredentialResponse implements ClientCredentialView {
  @ApiProperty() readonly id!: string;
  @ApiProperty({ nullable: true, type: String }) readonly name!: string | null;
  @ApiProperty({ enum: ['public_key'] }) readonly credential_type!: 'public_key';
  @ApiProperty() readonly kid!: string;
  @ApiProperty() readonly alg!: string;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
}
