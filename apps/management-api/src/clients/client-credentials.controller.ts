import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ASSERTION_ALGORITHMS, ClientAssertionsService, ClientCredentialView } from '@acme/oauth';
import { RequireScopes } from '../auth/scopes.guard';
import { ManagementErrorBody } from '../http/error-body.dto';
import { ClientIdParam } from './clients.dto';

class CreateClientCredentialRequest {
  @ApiProperty({ enum: ['public_key'] })
  @IsIn(['public_key'])
  readonly credential_type!: 'public_key';

  @ApiPropertyOptional({ maxLength: 128 })
  @IsString()
  @MaxLength(128)
  @IsOptional()
  readonly name?: string;

  @ApiProperty({ description: 'PEM of the RSA public key (SPKI) that verifies the client assertions', maxLength: 10000 })
  @IsString()
  @MaxLength(10000)
  readonly pem!: string;

  @ApiPropertyOptional({ enum: ASSERTION_ALGORITHMS, default: 'RS256' })
  @IsIn(ASSERTION_ALGORITHMS)
  @IsOptional()
  readonly alg?: string;
}

class ClientCredentialParams extends ClientIdParam {
  @ApiProperty({ maxLength: 64 })
  @Matches(/^cred_[0-9a-f]{24}$/, { message: 'credential_id is not a credential id' })
  readonly credential_id!: string;
}

class ClientCredentialResponse implements ClientCredentialView {
  @ApiProperty() readonly id!: string;
  @ApiProperty({ nullable: true, type: String }) readonly name!: string | null;
  @ApiProperty({ enum: ['public_key'] }) readonly credential_type!: 'public_key';
  @ApiProperty() readonly kid!: string;
  @ApiProperty() readonly alg!: string;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
}

/** The public keys of a client using private_key_jwt (Auth0's client credentials; docs/management-api.md#clients-and-grants). */
@ApiTags('clients')
@Controller('api/v2/clients/:id/credentials')
export class ClientCredentialsController {
  constructor(private readonly assertions: ClientAssertionsService) {}

  @Post()
  @RequireScopes('create:client_credentials')
  @ApiOperation({ operationId: 'post_credentials', summary: 'Register a public key the client signs its assertions with' })
  @ApiCreatedResponse({ type: ClientCredentialResponse })
  @ApiNotFoundResponse({ description: 'inexistent_client', type: ManagementErrorBody })
  add(@Param() params: ClientIdParam, @Body() body: CreateClientCredentialRequest): Promise<ClientCredentialView> {
    return this.assertions.add(params.id, { name: body.name, pem: body.pem, alg: body.alg });
  }

  @Get()
  @RequireScopes('read:client_credentials')
  @ApiOperation({ operationId: 'get_credentials', summary: 'The public keys of a client' })
  @ApiOkResponse({ type: [ClientCredentialResponse] })
  list(@Param() params: ClientIdParam): Promise<ClientCredentialView[]> {
    return this.assertions.list(params.id);
  }

  @Delete(':credential_id')
  @HttpCode(204)
  @RequireScopes('delete:client_credentials')
  @ApiOperation({ operationId: 'delete_credentials_by_credential_id', summary: 'Remove a public key: assertions it signed stop working at once' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@Param() params: ClientCredentialParams): Promise<void> {
    await this.assertions.remove(params.id, params.credential_id);
  }
}
