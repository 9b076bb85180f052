import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import type { HistoryOrder } from '@acme/rum';
import { ListRulesRequest } from '../../ingestion-rules/dto/rule.requests';

export class HistoryListRequest extends ListRulesRequest {
  @ApiPropertyOptional({ enum: ['updated_at', 'version'], default: 'version' })
  @IsOptional()
  @IsIn(['updated_at', 'version'])
  readonly orderby?: HistoryOrder;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  readonly asc?: boolean;
}
