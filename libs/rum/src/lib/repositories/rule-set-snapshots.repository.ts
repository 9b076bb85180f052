import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Filters } from '../filters';
import { Actor, RuleSetSnapshot, RuleStatus, SnapshotRule } from '../rule.types';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const SNAPSHOTS = rumTable('rule_set_snapshots');

/** A snapshot rule as the jsonb column holds it: the domain shape, timestamps as ISO text. */
export interface StoredSnapshotRule {
  id: string;
  name: string;
  description: string;
  filters: Filters;
  status: RuleStatus;
  createdAt: string;
  updatedAt: string;
}

const toStored = (rule: SnapshotRule): StoredSnapshotRule => ({
  id: rule.id,
  name: rule.name,
  description: rule.description,
  filters: rule.filters,
  status: rule.status,
  createdAt: rule.createdAt.toISOString(),
  updatedAt: rule.updatedAt.toISOString(),
});

const fromStored = (rule: StoredSnapshotRule): SnapshotRule => ({
  id: rule.id,
  name: rule.name,
  description: rule.description,
  filters: rule.filters,
  status: rule.status,
  createdAt: new Date(rule.createdAt),
  updatedAt: new Date(rule.updatedAt),
});

interface SnapshotRow {
  version: number;
  rules: StoredSnapshotRule[];
  updated_by: string;
  updated_by_name: string;
  updated_at: Date;
}

export type SnapshotOrder = 'updatedAt' | 'version';

/** rum.rule_set_snapshots, append-only; every query is scoped to one application. */
@Injectable()
export class RuleSetSnapshotsRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  in(manager: Queryable): RuleSetSnapshotsRepository {
    return new RuleSetSnapshotsRepository(manager);
  }

  async insert(applicationId: string, version: number, rules: SnapshotRule[], actor: Actor): Promise<void> {
    await this.db.query(
      `INSERT INTO ${SNAPSHOTS} ("application_id", "version", "rules", "updated_by", "updated_by_name") VALUES ($1, $2, $3::jsonb, $4, $5)`,
      [applicationId, version, JSON.stringify(rules.map(toStored)), actor.id, actor.name],
    );
  }

  /** The rules of one version; undefined when the application has no such version. */
  async rulesAt(applicationId: string, version: number): Promise<SnapshotRule[] | undefined> {
    const [row]: { rules: StoredSnapshotRule[] }[] = await this.db.query(
      `SELECT "rules" FROM ${SNAPSHOTS} WHERE "application_id" = $1 AND "version" = $2`,
      [applicationId, version],
    );
    return row?.rules.map(fromStored);
  }

  async count(applicationId: string): Promise<number> {
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS "total" FROM ${SNAPSHOTS} WHERE "application_id" = $1`,
      [applicationId],
    );
    return Number(total);
  }

  /** Versions break ties between snapshots written in the same instant, so paging is stable. */
  async list(
    applicationId: string,
    options: { orderBy: SnapshotOrder; asc: boolean; offset: number; limit: number },
  ): Promise<RuleSetSnapshot[]> {
    const direction = options.asc ? 'ASC' : 'DESC';
    const order =
      options.orderBy === 'updatedAt' ? `"updated_at" ${direction}, "version" ${direction}` : `"version" ${direction}`;
    const rows: SnapshotRow[] = await this.db.query(
      `SELECT "version", "rules", "updated_by", "updated_by_name", "updated_at" FROM ${SNAPSHOTS}
       WHERE "application_id" = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`,
      [applicationId, options.limit, options.offset],
    );
    return rows.map((row) => ({
      version: row.version,
      rules: row.rules.map(fromStored),
      updatedBy: Number(row.updated_by),
      updatedByName: row.updated_by_name,
      updatedAt: row.updated_at,
    }));
  }
}
