import { Filters } from './filters';

export type RuleStatus = 'enabled' | 'disabled';

/** A rule as the API returns it; timestamps are Unix seconds. */
export interface RuleView {
  rule_id: string;
  rule_name: string;
  description: string;
  filters: Filters;
  status: RuleStatus;
  discarded_count: number;
  created_at: number;
  updated_at: number;
}

/** A rule inside a snapshot: the rule set as it was, without the live discard counter. */
export type SnapshotRule = Omit<RuleView, 'discarded_count'>;

export interface SnapshotView {
  version: number;
  rules: SnapshotRule[];
  updated_by: number;
  updated_by_name: string;
  updated_at: number;
}

export interface Page<T> {
  total: number;
  has_next_page: boolean;
  items: T[];
}

/** Who makes a change (recorded in the snapshot). */
export interface Actor {
  id: number;
  name: string;
}

export interface RuleRow {
  id: string;
  rule_name: string;
  description: string;
  filters: Filters;
  status: RuleStatus;
  discarded_count: string;
  created_at: Date;
  updated_at: Date;
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toRuleView(row: RuleRow): RuleView {
  return {
    rule_id: row.id,
    rule_name: row.rule_name,
    description: row.description,
    filters: row.filters,
    status: row.status,
    discarded_count: Number(row.discarded_count),
    created_at: unixSeconds(row.created_at),
    updated_at: unixSeconds(row.updated_at),
  };
}

export const RULE_SET_CHANNEL = 'rum:rule-sets';
