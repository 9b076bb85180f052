import { Filters } from './filters';

export type RuleStatus = 'enabled' | 'disabled';

/** A rule of an application, with its live discard counter. */
export interface Rule {
  id: string;
  name: string;
  description: string;
  filters: Filters;
  status: RuleStatus;
  discardedCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A rule inside a snapshot: the rule set as it was, without the live discard counter. */
export type SnapshotRule = Omit<Rule, 'discardedCount'>;

/** One version of an application's whole rule set, and who made it. */
export interface RuleSetSnapshot {
  version: number;
  rules: SnapshotRule[];
  updatedBy: number;
  updatedByName: string;
  updatedAt: Date;
}

export interface Page<T> {
  total: number;
  hasNextPage: boolean;
  items: T[];
}

export interface PageRequest {
  /** Zero-based. */
  page: number;
  limit: number;
}

export const pageOf = <T>(items: T[], total: number, request: PageRequest): Page<T> => ({
  total,
  hasNextPage: (request.page + 1) * request.limit < total,
  items,
});

/** Who makes a change (recorded in the snapshot). */
export interface Actor {
  id: number;
  name: string;
}

/** Channel of the cross-instance "rule set changed" notification; its message is `{application_id, version}`. */
export const RULE_SET_CHANNEL = 'rum:rule-sets';
