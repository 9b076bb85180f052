import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import type { HistoryOrder } from '@acme/rum';
import { ListRulesRequest } from '../../ingestion-rules/dto/rule.request.dto';

/** The wire's `orderby` values and the domain's orders they name. */
export const HISTORY_ORDER: Readonly<Record<'updated_at' | 'version', HistoryOrder>> = {
  updated_at: 'updatedAt',
  version: 'version',
};
type WireHistoryOrder = keyof typeof HISTORY_ORDER;

export class HistoryListRequest extends ListRulesRequest {
  @ApiPropertyOptional({ enum: ['updated_at', 'version'], default: 'version' })
  @IsOptional()
  @IsIn(['updated_at', 'version'])
  readonly orderby?: WireHistoryOrder;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  readonly asc?: boolean;
}
