import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ClientService } from '@acme/oauth';
import { AppError, PlatformErrorCode } from '@acme/platform-errors';
import { RequireScopes } from '../auth/scopes.guard';
import { ManagementErrorBody } from '../http/dto/error-body.response.dto';
import { clientSettings } from './dto/client-settings.request.dto';
import {
  CLIENT_OR_FIELDS,
  ClientFieldsResponse,
  ClientPageResponse,
  ClientResponse,
  CreatedClientResponse,
  selectFields,
} from './dto/clients.response.dto';
import {
  ClientIdParam,
  ClientListQuery,
  CreateClientRequest,
  FieldsQuery,
  UpdateClientRequest,
} from './dto/clients.request.dto';

@ApiTags('clients')
@ApiExtraModels(ClientPageResponse, ClientResponse, ClientFieldsResponse)
@ApiBadRequestResponse({ description: 'invalid_query_string, invalid_body or invalid_uri', type: ManagementErrorBody })
@Controller('api/v2/clients')
export class ClientsController {
  constructor(private readonly clients: ClientService) {}

  @Post()
  @RequireScopes('create:clients')
  @ApiOperation({ operationId: 'post_clients', summary: 'Create a client (its secret is shown once)' })
  @ApiCreatedResponse({ type: CreatedClientResponse })
  @ApiConflictResponse({ description: 'client_conflict', type: ManagementErrorBody })
  async create(@Body() body: CreateClientRequest): Promise<CreatedClientResponse> {
    const { client, clientSecret } = await this.clients.create({
      name: body.name,
      clientId: body.client_id,
      isFirstParty: body.is_first_party,
      grantTypes: body.grant_types,
      ...clientSettings(body),
    });
    return { ...ClientResponse.from(client), client_secret: clientSecret };
  }

  @Get()
  @RequireScopes('read:clients')
  @ApiOperation({ operationId: 'get_clients', summary: 'List clients (Auth0 page/per_page/include_totals)' })
  @ApiOkResponse({
    schema: { oneOf: [{ type: 'array', items: CLIENT_OR_FIELDS }, { $ref: getSchemaPath(ClientPageResponse) }] },
  })
  async list(@Query() query: ClientListQuery): Promise<Partial<ClientResponse>[] | ClientPageResponse> {
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 50;
    const { clients, total } = await this.clients.list(page, perPage);
    const items = clients.map((client) => selectFields(ClientResponse.from(client), query) as ClientResponse);
    return query.include_totals
      ? { start: page * perPage, limit: perPage, length: items.length, total, clients: items }
      : items;
  }

  @Get(':id')
  @RequireScopes('read:clients')
  @ApiOperation({ operationId: 'get_clients_by_id', summary: 'Get a client' })
  @ApiOkResponse({ schema: CLIENT_OR_FIELDS })
  @ApiNotFoundResponse({ description: 'inexistent_client', type: ManagementErrorBody })
  async get(@Param() params: ClientIdParam, @Query() query: FieldsQuery): Promise<Partial<ClientResponse>> {
    return selectFields(ClientResponse.from(await this.clients.get(params.id)), query);
  }

  @Patch(':id')
  @RequireScopes('update:clients')
  @ApiOperation({ operationId: 'patch_clients_by_id', summary: 'Update a client (only the fields sent change)' })
  @ApiOkResponse({ type: ClientResponse })
  @ApiNotFoundResponse({ description: 'inexistent_client', type: ManagementErrorBody })
  async update(@Param() params: ClientIdParam, @Body() body: UpdateClientRequest): Promise<ClientResponse> {
    const client = await this.clients.update(params.id, {
      name: body.name,
      isFirstParty: body.is_first_party,
      grantTypes: body.grant_types,
      ...clientSettings(body),
    });
    return ClientResponse.from(client);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('update:client_keys')
  @ApiOperation({
    operationId: 'post_rotate_secret',
    summary: 'Rotate a client secret (the new one is shown once; the old one stops working at once)',
  })
  @ApiOkResponse({ type: CreatedClientResponse })
  @ApiNotFoundResponse({ description: 'inexistent_client', type: ManagementErrorBody })
  async rotateSecret(@Param() params: ClientIdParam): Promise<CreatedClientResponse> {
    const { client, clientSecret } = await this.clients.rotateSecret(params.id);
    return { ...ClientResponse.from(client), client_secret: clientSecret };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('delete:clients')
  @ApiOperation({ operationId: 'delete_clients_by_id', summary: 'Delete a client and its grants' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'inexistent_client', type: ManagementErrorBody })
  async delete(@Param() params: ClientIdParam): Promise<void> {
    await this.clients.delete(params.id);
  }
}

/** Grants may only target the management API (the one audience this service serves). */
export function assertManagementAudience(audience: string, managementAudience: string): void {
  if (audience !== managementAudience) {
    throw new AppError(PlatformErrorCode.VALIDATION_FAILED, 'validation', `audience must be ${managementAudience}`, {
      details: {
        location: 'body',
        issues: [{ property: 'audience', constraints: [`audience must be ${managementAudience}`] }],
      },
    });
  }
}
