import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ClientAssertionsService, ClientCredentialView } from '@acme/oauth';
import { RequireScopes } from '../auth/scopes.guard';
import { ManagementErrorBody } from '../http/dto/error-body.response.dto';
import { ClientCredentialParams, CreateClientCredentialRequest } from './dto/client-credentials.request.dto';
import { ClientCredentialResponse } from './dto/client-credentials.response.dto';
import { ClientIdParam } from './dto/clients.request.dto';

/** The public keys of a client using private_key_jwt (Auth0's client credentials; docs/management-api.md#clients-and-grants). */
@ApiTags('clients')
@Controller('api/v2/clients/:id/credentials')
export class ClientCredentialsController {
  constructor(private readonly assertions: ClientAssertionsService) {}

  @Post()
  @RequireScopes('create:client_credentials')
  @ApiOperation({
    operationId: 'post_credentials',
    summary: 'Register a public key the client signs its assertions with',
  })
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
  @ApiOperation({
    operationId: 'delete_credentials_by_credential_id',
    summary: 'Remove a public key: assertions it signed stop working at once',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@Param() params: ClientCredentialParams): Promise<void> {
    await this.assertions.remove(params.id, params.credential_id);
  }
}
