import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard } from '@acme/platform-auth';
import { AccountsService, AppKeysService, AuditService } from '@acme/rum';
import {
  AccessGrantResponse,
  AppKeyListResponse,
  AuditLogResponse,
  ClientTokenResponse,
  CreatedAccountResponse,
  CreatedApplicationResponse,
  IssuedAppKeyResponse,
  presentAppKeys,
  presentAuditPage,
  presentCreatedAccount,
  presentIssuedAppKey,
} from './dto/admin.response.dto';
import {
  AccessParams,
  AccountParams,
  AppKeyParams,
  ApplicationParams,
  AuditLogQuery,
  CreateAccountRequest,
  CreateApplicationRequest,
  SetAccessRequest,
} from './dto/admin.request.dto';

/** Operator API (root README, Services): provisions what the public API assumes exists. Hidden unless ADMIN_TOKEN is set. */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminTokenGuard)
@Controller('admin/v1')
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly audit: AuditService,
    private readonly appKeys: AppKeysService,
  ) {}

  @Post('accounts')
  @ApiOperation({ summary: 'Create an account → {account_id, app_key} (the key is shown once)' })
  @ApiCreatedResponse({ type: CreatedAccountResponse })
  async createAccount(@Body() body: CreateAccountRequest): Promise<CreatedAccountResponse> {
    return presentCreatedAccount(await this.accounts.createAccount(body.name));
  }

  @Post('accounts/:accountId/app-keys')
  @ApiOperation({ summary: 'Issue another app key for an account → {app_key_id, app_key} (the key is shown once)' })
  @ApiCreatedResponse({ type: IssuedAppKeyResponse })
  async issueAppKey(@Param() params: AccountParams): Promise<IssuedAppKeyResponse> {
    await this.accounts.requireAccount(params.accountId);
    return presentIssuedAppKey(await this.appKeys.issue(params.accountId));
  }

  @Get('accounts/:accountId/app-keys')
  @ApiOperation({ summary: 'The account’s app keys, masked → {items: [{app_key_id, masked_app_key, created_at}]}' })
  @ApiOkResponse({ type: AppKeyListResponse })
  async listAppKeys(@Param() params: AccountParams): Promise<AppKeyListResponse> {
    await this.accounts.requireAccount(params.accountId);
    return presentAppKeys(await this.appKeys.list(params.accountId));
  }

  @Delete('accounts/:accountId/app-keys/:appKeyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an app key: it stops working on every instance at once' })
  async revokeAppKey(@Param() params: AppKeyParams): Promise<void> {
    await this.appKeys.revoke(params.accountId, params.appKeyId);
  }

  @Post('applications')
  @ApiOperation({
    summary: 'Create an application owned by an account (the owner has write access) → {application_id}',
  })
  @ApiCreatedResponse({ type: CreatedApplicationResponse })
  async createApplication(@Body() body: CreateApplicationRequest): Promise<CreatedApplicationResponse> {
    return { application_id: await this.accounts.createApplication(body.name, body.owner_account_id) };
  }

  @Put('applications/:id/access/:accountId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Grant an account read or write access to an application' })
  @ApiOkResponse({ type: AccessGrantResponse })
  async setAccess(@Param() params: AccessParams, @Body() body: SetAccessRequest): Promise<AccessGrantResponse> {
    await this.accounts.setAccess(params.id, params.accountId, body.access);
    return { application_id: params.id, account_id: params.accountId, access: body.access };
  }

  @Post('applications/:id/client-tokens')
  @ApiOperation({ summary: 'Issue an ingest client token for an application → {client_token} (shown once)' })
  @ApiCreatedResponse({ type: ClientTokenResponse })
  async createClientToken(@Param() params: ApplicationParams): Promise<ClientTokenResponse> {
    return { client_token: await this.accounts.createClientToken(params.id) };
  }

  @Get('accounts/:accountId/audit-log')
  @ApiOperation({ summary: 'The account’s audit log, newest first → {items, next_before}' })
  @ApiOkResponse({ type: AuditLogResponse })
  async auditLog(@Param() params: AccountParams, @Query() query: AuditLogQuery): Promise<AuditLogResponse> {
    await this.accounts.requireAccount(params.accountId);
    return presentAuditPage(
      await this.audit.list(params.accountId, { limit: query.limit ?? 50, before: query.before }),
    );
  }
}
