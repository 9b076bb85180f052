import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiSecurity } from '@nestjs/swagger';
import { RulesService, type Account } from '@acme/rum';
import { AppKeyGuard } from '../auth/app-key.guard';
import { ApplicationAccessGuard } from '../auth/application-access.guard';
import { RumRoute } from '../auth/rum-route.decorator';
import { Enveloped, RateLimitGuard } from '@acme/platform-http';
import { CallingAccount } from '../http/request-context';
import {
  CreatedRule,
  CreatedRuleResponse,
  DeletedRuleResponse,
  presentCreatedRule,
  presentRule,
  presentRulePage,
  RulePage,
  RulePageResponse,
  RuleResponse,
  RuleView,
} from './dto/rule.response.dto';
import {
  CreateRuleRequest,
  DEFAULT_PAGE_SIZE,
  ListRulesRequest,
  MAX_PAGE_SIZE,
  RuleReferenceRequest,
  UpdateRuleRequest,
} from './dto/rule.request.dto';

/** Guards run in this order: key (401), access to the application (403), per-account limit (429). */
@ApiTags('error-ingestion rules')
@ApiSecurity('appKey')
@Enveloped()
@UseGuards(AppKeyGuard, ApplicationAccessGuard, RateLimitGuard)
@Controller('rum/error-ingestion/rules')
export class RulesController {
  constructor(private readonly rules: RulesService) {}

  @Post('create')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a rule; writes a new rule-set snapshot' })
  @ApiOkResponse({ type: CreatedRuleResponse })
  @RumRoute({ name: 'create', access: 'write', limit: 'create' })
  async create(@CallingAccount() account: Account, @Body() body: CreateRuleRequest): Promise<CreatedRule> {
    const { rule_name: name, description, filters } = body;
    return presentCreatedRule(await this.rules.create(account, body.application_id, { name, description, filters }));
  }

  @Post('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Change a rule’s name, description or filters; writes a new snapshot' })
  @ApiOkResponse({ type: RuleResponse })
  @RumRoute({ name: 'update', access: 'write', limit: 'create' })
  async update(@CallingAccount() account: Account, @Body() body: UpdateRuleRequest): Promise<RuleView> {
    const { rule_name: name, description, filters } = body;
    return presentRule(
      await this.rules.update(account, body.application_id, body.rule_id, { name, description, filters }),
    );
  }

  @Post('delete')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a rule; writes a new snapshot' })
  @ApiOkResponse({ type: DeletedRuleResponse })
  @RumRoute({ name: 'delete', access: 'write', limit: 'create' })
  async delete(@CallingAccount() account: Account, @Body() body: RuleReferenceRequest) {
    await this.rules.remove(account, body.application_id, body.rule_id);
    return { rule_id: body.rule_id };
  }

  @Post('enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a rule; writes a new snapshot' })
  @ApiOkResponse({ type: RuleResponse })
  @RumRoute({ name: 'enable', access: 'write', limit: 'create' })
  async enable(@CallingAccount() account: Account, @Body() body: RuleReferenceRequest): Promise<RuleView> {
    return presentRule(await this.rules.setStatus(account, body.application_id, body.rule_id, 'enabled'));
  }

  @Post('disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable a rule; writes a new snapshot' })
  @ApiOkResponse({ type: RuleResponse })
  @RumRoute({ name: 'disable', access: 'write', limit: 'create' })
  async disable(@CallingAccount() account: Account, @Body() body: RuleReferenceRequest): Promise<RuleView> {
    return presentRule(await this.rules.setStatus(account, body.application_id, body.rule_id, 'disabled'));
  }

  @Post('info')
  @HttpCode(200)
  @ApiOperation({ summary: 'One rule, with its discarded_count' })
  @ApiOkResponse({ type: RuleResponse })
  @RumRoute({ name: 'info', access: 'read', limit: 'history' })
  async info(@Body() body: RuleReferenceRequest): Promise<RuleView> {
    return presentRule(await this.rules.info(body.application_id, body.rule_id));
  }

  @Post('list')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rules of an application in creation order' })
  @ApiOkResponse({ type: RulePageResponse })
  @RumRoute({ name: 'list', access: 'read', limit: 'history' })
  async list(@Body() body: ListRulesRequest): Promise<RulePage> {
    const page = { page: body.p ?? 0, limit: Math.min(body.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
    return presentRulePage(await this.rules.list(body.application_id, page));
  }
}
