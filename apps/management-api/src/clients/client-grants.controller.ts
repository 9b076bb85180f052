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
import { ClientGrantService, OAuthSettings } from '@acme/oauth';
import { RequireScopes } from '../auth/scopes.guard';
import { ManagementErrorBody } from '../http/dto/error-body.response.dto';
import { assertManagementAudience } from './clients.controller';
import {
  ClientGrantIdParam,
  ClientGrantQuery,
  CreateClientGrantRequest,
  UpdateClientGrantRequest,
} from './dto/clients.request.dto';
import { ClientGrantPageResponse, ClientGrantResponse } from './dto/clients.response.dto';

@ApiTags('client-grants')
@ApiExtraModels(ClientGrantPageResponse, ClientGrantResponse)
@ApiBadRequestResponse({ description: 'invalid_query_string, invalid_body or invalid_uri', type: ManagementErrorBody })
@Controller('api/v2/client-grants')
export class ClientGrantsController {
  constructor(
    private readonly grants: ClientGrantService,
    private readonly oauth: OAuthSettings,
  ) {}

  @Post()
  @RequireScopes('create:client_grants')
  @ApiOperation({ operationId: 'post_client-grants', summary: 'Grant a client scopes for the management API' })
  @ApiCreatedResponse({ type: ClientGrantResponse })
  @ApiNotFoundResponse({ description: 'inexistent_client', type: ManagementErrorBody })
  @ApiConflictResponse({ description: 'client_grant_conflict', type: ManagementErrorBody })
  async create(@Body() body: CreateClientGrantRequest): Promise<ClientGrantResponse> {
    assertManagementAudience(body.audience, this.oauth.managementAudience);
    return ClientGrantResponse.from(
      await this.grants.create({ clientId: body.client_id, audience: body.audience, scope: body.scope }),
    );
  }

  @Get()
  @RequireScopes('read:client_grants')
  @ApiOperation({ operationId: 'get_client-grants', summary: 'List client grants' })
  @ApiOkResponse({
    schema: {
      oneOf: [
        { type: 'array', items: { $ref: getSchemaPath(ClientGrantResponse) } },
        { $ref: getSchemaPath(ClientGrantPageResponse) },
      ],
    },
  })
  async list(@Query() query: ClientGrantQuery): Promise<ClientGrantResponse[] | ClientGrantPageResponse> {
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 50;
    const { grants, total } = await this.grants.list(
      { clientId: query.client_id, audience: query.audience },
      page,
      perPage,
    );
    const items = grants.map(ClientGrantResponse.from);
    return query.include_totals ? { start: page * perPage, limit: perPage, total, client_grants: items } : items;
  }

  @Get(':id')
  @RequireScopes('read:client_grants')
  @ApiOperation({ operationId: 'get_client-grants_by_id', summary: 'Get a client grant' })
  @ApiOkResponse({ type: ClientGrantResponse })
  @ApiNotFoundResponse({ description: 'inexistent_client_grant', type: ManagementErrorBody })
  async get(@Param() params: ClientGrantIdParam): Promise<ClientGrantResponse> {
    return ClientGrantResponse.from(await this.grants.get(params.id));
  }

  @Patch(':id')
  @RequireScopes('update:client_grants')
  @ApiOperation({
    operationId: 'patch_client-grants_by_id',
    summary: "Replace a client grant's scopes (cached tokens keep theirs until they expire)",
  })
  @ApiOkResponse({ type: ClientGrantResponse })
  @ApiNotFoundResponse({ description: 'inexistent_client_grant', type: ManagementErrorBody })
  async update(
    @Param() params: ClientGrantIdParam,
    @Body() body: UpdateClientGrantRequest,
  ): Promise<ClientGrantResponse> {
    return ClientGrantResponse.from(await this.grants.updateScope(params.id, body.scope));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('delete:client_grants')
  @ApiOperation({ operationId: 'delete_client-grants_by_id', summary: 'Delete a client grant' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'inexistent_client_grant', type: ManagementErrorBody })
  async delete(@Param() params: ClientGrantIdParam): Promise<void> {
    await this.grants.delete(params.id);
  }
}
