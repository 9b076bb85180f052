import { Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { SigningKeyStore } from '@acme/oauth';
import { RequireScopes } from '../auth/scopes.guard';
import { ManagementErrorBody } from '../http/dto/error-body.response.dto';
import { SigningKeyCertResponse, SigningKeyResponse } from './dto/signing-keys.response.dto';
import { SigningKeyParams } from './dto/signing-keys.request.dto';

/** Auth0's signing-key routes: list, read, rotate, revoke (docs/management-api.md#signing-keys). */
@ApiTags('keys')
@Controller('api/v2/keys/signing')
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyStore) {}

  @Get()
  @RequireScopes('read:signing_keys')
  @ApiOperation({
    operationId: 'get_signing_keys',
    summary: 'Signing keys: current, next and previous (revoked ones included)',
  })
  @ApiOkResponse({ type: [SigningKeyResponse] })
  list(): SigningKeyResponse[] {
    return this.keys.list().map(SigningKeyResponse.from);
  }

  @Get(':kid')
  @RequireScopes('read:signing_keys')
  @ApiOperation({ operationId: 'get_signing_key', summary: 'A signing key by its kid' })
  @ApiOkResponse({ type: SigningKeyResponse })
  @ApiNotFoundResponse({ description: 'inexistent_signing_key', type: ManagementErrorBody })
  get(@Param() params: SigningKeyParams): SigningKeyResponse {
    return SigningKeyResponse.from(this.keys.get(params.kid));
  }

  @Post('rotate')
  @HttpCode(201)
  @RequireScopes('create:signing_keys', 'update:signing_keys')
  @ApiOperation({
    operationId: 'post_signing_keys',
    summary: 'Rotate: the next key signs from now on, a new next key is made',
  })
  @ApiCreatedResponse({ type: SigningKeyCertResponse })
  @ApiConflictResponse({
    description: 'signing_key_conflict: the key is configured by MANAGEMENT_SIGNING_KEY',
    type: ManagementErrorBody,
  })
  async rotate(): Promise<SigningKeyCertResponse> {
    const key = await this.keys.rotate();
    return { kid: key.kid, cert: key.certificate.pem };
  }

  @Put(':kid/revoke')
  @RequireScopes('update:signing_keys')
  @ApiOperation({
    operationId: 'put_signing_keys',
    summary: 'Revoke a previous key: tokens it signed are refused on every instance at once',
  })
  @ApiOkResponse({ type: SigningKeyCertResponse })
  @ApiNotFoundResponse({ description: 'inexistent_signing_key', type: ManagementErrorBody })
  @ApiConflictResponse({ description: 'signing_key_conflict: the current or next key', type: ManagementErrorBody })
  async revoke(@Param() params: SigningKeyParams): Promise<SigningKeyCertResponse> {
    const key = await this.keys.revoke(params.kid);
    return { kid: key.kid, cert: key.certificate.pem };
  }
}
