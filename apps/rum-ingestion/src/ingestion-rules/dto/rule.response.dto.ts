import { ApiProperty } from '@nestjs/swagger';
import type { Filters, Page, Rule, RuleSetSnapshot, SnapshotRule } from '@acme/rum';
import { enveloped } from '../../http/dto/envelope.response.dto';
import { FILTERS_SCHEMA } from './rule-fields.request.dto';

export class CreatedRule {
  @ApiProperty({ description: '24 hex characters' }) readonly rule_id!: string;
  @ApiProperty() readonly rule_name!: string;
}

export class DeletedRule {
  @ApiProperty() readonly rule_id!: string;
}

/** A rule as a rule-set snapshot holds it. */
export class SnapshotRuleView {
  @ApiProperty() readonly rule_id!: string;
  @ApiProperty() readonly rule_name!: string;
  @ApiProperty() readonly description!: string;
  @ApiProperty(FILTERS_SCHEMA) readonly filters!: Filters;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) readonly status!: 'enabled' | 'disabled';
  @ApiProperty({ description: 'Unix seconds' }) readonly created_at!: number;
  @ApiProperty({ description: 'Unix seconds' }) readonly updated_at!: number;
}

export class RuleView extends SnapshotRuleView {
  @ApiProperty({ description: 'Events this rule dropped' }) readonly discarded_count!: number;
}

export class RulePage {
  @ApiProperty() readonly total!: number;
  @ApiProperty() readonly has_next_page!: boolean;
  @ApiProperty({ type: [RuleView] }) readonly items!: RuleView[];
}

export class RuleSetSnapshotView {
  @ApiProperty() readonly version!: number;
  @ApiProperty({ type: [SnapshotRuleView] }) readonly rules!: SnapshotRuleView[];
  @ApiProperty({ description: 'Account that made the change' }) readonly updated_by!: number;
  @ApiProperty() readonly updated_by_name!: string;
  @ApiProperty({ description: 'Unix seconds' }) readonly updated_at!: number;
}

export class RuleSetHistoryPage {
  @ApiProperty() readonly total!: number;
  @ApiProperty() readonly has_next_page!: boolean;
  @ApiProperty({ type: [RuleSetSnapshotView] }) readonly items!: RuleSetSnapshotView[];
}

export const CreatedRuleResponse = enveloped(CreatedRule);
export const DeletedRuleResponse = enveloped(DeletedRule);
export const RuleResponse = enveloped(RuleView);
export const RulePageResponse = enveloped(RulePage);
export const RuleSetHistoryResponse = enveloped(RuleSetHistoryPage);

/** Timestamps are Unix seconds on the wire. */
export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export const presentCreatedRule = (rule: { id: string; name: string }): CreatedRule => ({
  rule_id: rule.id,
  rule_name: rule.name,
});

export const presentSnapshotRule = (rule: SnapshotRule): SnapshotRuleView => ({
  rule_id: rule.id,
  rule_name: rule.name,
  description: rule.description,
  filters: rule.filters,
  status: rule.status,
  created_at: unixSeconds(rule.createdAt),
  updated_at: unixSeconds(rule.updatedAt),
});

export const presentRule = (rule: Rule): RuleView => ({
  ...presentSnapshotRule(rule),
  discarded_count: rule.discardedCount,
});

export const presentRulePage = (page: Page<Rule>): RulePage => ({
  total: page.total,
  has_next_page: page.hasNextPage,
  items: page.items.map(presentRule),
});

export const presentSnapshot = (snapshot: RuleSetSnapshot): RuleSetSnapshotView => ({
  version: snapshot.version,
  rules: snapshot.rules.map(presentSnapshotRule),
  updated_by: snapshot.updatedBy,
  updated_by_name: snapshot.updatedByName,
  updated_at: unixSeconds(snapshot.updatedAt),
});

export const presentHistoryPage = (page: Page<RuleSetSnapshot>): RuleSetHistoryPage => ({
  total: page.total,
  has_next_page: page.hasNextPage,
  items: page.items.map(presentSnapshot),
});
