import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiSecurity } from '@nestjs/swagger';
import { RuleSetStore } from '@acme/rum';
import { AppKeyGuard } from '../auth/app-key.guard';
import { ApplicationAccessGuard } from '../auth/application-access.guard';
import { RumRoute } from '../auth/rum-route.decorator';
import { Enveloped, RateLimitGuard } from '@acme/platform-http';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../ingestion-rules/dto/rule.request.dto';
import {
  presentHistoryPage,
  RuleSetHistoryPage,
  RuleSetHistoryResponse,
} from '../ingestion-rules/dto/rule.response.dto';
import { HISTORY_ORDER, HistoryListRequest } from './dto/history.request.dto';

@ApiTags('error-ingestion rules')
@ApiSecurity('appKey')
@Enveloped()
@UseGuards(AppKeyGuard, ApplicationAccessGuard, RateLimitGuard)
@Controller('rum/error-ingestion/rules/history')
export class HistoryController {
  constructor(private readonly store: RuleSetStore) {}

  @Post('list')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Snapshots of the whole rule set; defaults p 0, limit 20 (capped at 100), orderby version, asc false',
  })
  @ApiOkResponse({ type: RuleSetHistoryResponse })
  @RumRoute({ name: 'history', access: 'read', limit: 'history' })
  async list(@Body() body: HistoryListRequest): Promise<RuleSetHistoryPage> {
    const history = await this.store.history(body.application_id, {
      page: body.p ?? 0,
      limit: Math.min(body.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
      orderBy: HISTORY_ORDER[body.orderby ?? 'version'],
      asc: body.asc ?? false,
    });
    return presentHistoryPage(history);
  }
}
