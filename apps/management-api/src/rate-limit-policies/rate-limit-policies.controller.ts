import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtension,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RateLimitPolicyService } from '@acme/policies';
import { RequireScopes } from '../auth/scopes.guard';
import { ManagementErrorBody } from '../http/dto/error-body.response.dto';
import {
  AllowConfiguration,
  BlockOrLogConfiguration,
  CreateRateLimitPolicyRequest,
  ListRateLimitPoliciesQuery,
  PolicyIdParam,
  RedirectConfiguration,
  UpdateRateLimitPolicyRequest,
} from './dto/rate-limit-policy.request.dto';
import { RateLimitPolicyListResponse, RateLimitPolicyResponse } from './dto/rate-limit-policy.response.dto';

@ApiTags('rate-limit-policies')
@ApiExtraModels(AllowConfiguration, BlockOrLogConfiguration, RedirectConfiguration, ManagementErrorBody)
@ApiBadRequestResponse({
  description: 'invalid_query_string, invalid_body or invalid_uri; the message names the field',
  type: ManagementErrorBody,
})
@Controller('api/v2/rate-limit-policies')
export class RateLimitPoliciesController {
  constructor(private readonly policies: RateLimitPolicyService) {}

  @Get()
  @RequireScopes('read:rate_limit_policies')
  @ApiOperation({
    operationId: 'get_rate-limit-policies',
    summary: 'Get rate limit policies',
    description: 'Early Access. Creation order; `next` only when another page exists.',
  })
  @ApiExtension('x-release-lifecycle', 'EA')
  @ApiOkResponse({ type: RateLimitPolicyListResponse })
  async list(@Query() query: ListRateLimitPoliciesQuery): Promise<RateLimitPolicyListResponse> {
    const page = await this.policies.list(
      { resource: query.resource, consumer: query.consumer, consumerSelector: query.consumer_selector },
      query.take ?? 50,
      query.from,
    );
    const body: RateLimitPolicyListResponse = {
      rate_limit_policies: page.policies.map(RateLimitPolicyResponse.fromListItem),
    };
    return page.next === undefined ? body : { ...body, next: page.next };
  }

  @Post()
  @ApiExtension('x-release-lifecycle', 'EA')
  @RequireScopes('create:rate_limit_policies')
  @ApiOperation({ operationId: 'post_rate-limit-policies', summary: 'Create a rate limit policy' })
  @ApiCreatedResponse({ type: RateLimitPolicyResponse })
  @ApiConflictResponse({
    description: 'rate_limit_policy_conflict: same resource, consumer and consumer_selector',
    type: ManagementErrorBody,
  })
  async create(@Body() body: CreateRateLimitPolicyRequest): Promise<RateLimitPolicyResponse> {
    const policy = await this.policies.create({
      resource: body.resource,
      consumer: body.consumer,
      consumerSelector: body.consumer_selector,
      configuration: body.configuration,
    });
    return RateLimitPolicyResponse.from(policy);
  }

  @Get(':id')
  @ApiExtension('x-release-lifecycle', 'EA')
  @RequireScopes('read:rate_limit_policies')
  @ApiOperation({ operationId: 'get_rate-limit-policies_by_id', summary: 'Get a rate limit policy' })
  @ApiOkResponse({ type: RateLimitPolicyResponse })
  @ApiNotFoundResponse({ description: 'inexistent_rate_limit_policy', type: ManagementErrorBody })
  async get(@Param() params: PolicyIdParam): Promise<RateLimitPolicyResponse> {
    return RateLimitPolicyResponse.from(await this.policies.get(params.id));
  }

  @Patch(':id')
  @ApiExtension('x-release-lifecycle', 'EA')
  @RequireScopes('update:rate_limit_policies')
  @ApiOperation({
    operationId: 'patch_rate-limit-policies_by_id',
    summary: 'Update the configuration of a rate limit policy',
  })
  @ApiOkResponse({ type: RateLimitPolicyResponse })
  @ApiNotFoundResponse({ description: 'inexistent_rate_limit_policy', type: ManagementErrorBody })
  async update(
    @Param() params: PolicyIdParam,
    @Body() body: UpdateRateLimitPolicyRequest,
  ): Promise<RateLimitPolicyResponse> {
    return RateLimitPolicyResponse.from(await this.policies.updateConfiguration(params.id, body.configuration));
  }

  @Delete(':id')
  @ApiExtension('x-release-lifecycle', 'EA')
  @HttpCode(204)
  @RequireScopes('delete:rate_limit_policies')
  @ApiOperation({ operationId: 'delete_rate-limit-policies_by_id', summary: 'Delete a rate limit policy' })
  @ApiNoContentResponse({ description: 'The policy was deleted successfully' })
  @ApiNotFoundResponse({ description: 'inexistent_rate_limit_policy', type: ManagementErrorBody })
  async delete(@Param() params: PolicyIdParam): Promise<void> {
    await this.policies.delete(params.id);
  }
}
