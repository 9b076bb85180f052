import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Filters } from '../filters';
import { Actor, RuleSetSnapshot, RuleStatus, SnapshotRule } from '../rule.types';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const SNAPSHOTS = rumTable('rule_set_snapshots');
const VERSIONS = rumTable('rule_versions');
const RULES = rumTable('rules');
const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** A rule version as the read queries build it: the domain shape, timestamps as ISO text (milliseconds). */
interface StoredSnapshotRule {
  id: string;
  name: string;
  description: string;
  filters: Filters;
  status: RuleStatus;
  createdAt: string;
  updatedAt: string;
}

const fromStored = (rule: StoredSnapshotRule): SnapshotRule => ({
  id: rule.id,
  name: rule.name,
  description: rule.description,
  filters: rule.filters,
  status: rule.status,
  createdAt: new Date(rule.createdAt),
  updatedAt: new Date(rule.updatedAt),
});

/** The rules a snapshot row `s` references, in rule order, as one json array. */
const RULES_OF_SNAPSHOT = `(
  SELECT coalesce(json_agg(json_build_object('id', v."rule_id", 'name', v."rule_name", 'description', v."description",
           'filters', v."filters", 'status', v."status",
           'createdAt', to_char(v."created_at" AT TIME ZONE 'UTC', ${ISO_MS}),
           'updatedAt', to_char(v."updated_at" AT TIME ZONE 'UTC', ${ISO_MS})) ORDER BY ref."n"), '[]'::json)
    FROM unnest(s."rule_ids", s."rule_versions") WITH ORDINALITY AS ref("rule_id", "rule_version", "n")
    JOIN ${VERSIONS} v
      ON v."application_id" = s."application_id" AND v."rule_id" = ref."rule_id" AND v."rule_version" = ref."rule_version"
)`;

interface SnapshotRow {
  version: number;
  rules: StoredSnapshotRule[];
  updated_by: string;
  updated_by_name: string;
  updated_at: Date;
}

export type SnapshotOrder = 'updatedAt' | 'version';

/**
 * rum.rule_set_snapshots and rum.rule_versions, both append-only; every query is scoped to one application.
 * A rule's content is stored once per rule version; a snapshot holds only (rule_id, rule_version) references,
 * so history grows with the changes made, not with changes × rules (apps/rum-ingestion/README.md).
 */
@Injectable()
export class RuleSetSnapshotsRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  in(manager: Queryable): RuleSetSnapshotsRepository {
    return new RuleSetSnapshotsRepository(manager);
  }

  /**
   * Records the application's current rules (rum.rules) as `version`: the rule versions not stored yet, then
   * the snapshot's references in creation order. Runs in the change's transaction.
   */
  async record(applicationId: string, version: number, actor: Actor): Promise<void> {
    await this.db.query(
      `INSERT INTO ${VERSIONS}
         ("application_id", "rule_id", "rule_version", "rule_name", "description", "filters", "status", "created_at", "updated_at")
       SELECT r."application_id", r."id", r."rule_version", r."rule_name", r."description", r."filters", r."status",
              r."created_at", r."updated_at"
         FROM ${RULES} r
        WHERE r."application_id" = $1 AND NOT EXISTS (
          SELECT 1 FROM ${VERSIONS} v
           WHERE v."application_id" = r."application_id" AND v."rule_id" = r."id" AND v."rule_version" = r."rule_version")`,
      [applicationId],
    );
    await this.db.query(
      `INSERT INTO ${SNAPSHOTS} ("application_id", "version", "rule_ids", "rule_versions", "updated_by", "updated_by_name")
       SELECT $1::varchar, $2::int, coalesce(array_agg(r."id" ORDER BY r."seq"), '{}'), coalesce(array_agg(r."rule_version" ORDER BY r."seq"), '{}'), $3, $4
         FROM ${RULES} r WHERE r."application_id" = $1::varchar`,
      [applicationId, version, actor.id, actor.name],
    );
  }

  /** The rules of one version; undefined when the application has no such version. */
  async rulesAt(applicationId: string, version: number): Promise<SnapshotRule[] | undefined> {
    const [row]: { rules: StoredSnapshotRule[] }[] = await this.db.query(
      `SELECT ${RULES_OF_SNAPSHOT} AS "rules" FROM ${SNAPSHOTS} s WHERE s."application_id" = $1 AND s."version" = $2`,
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
    // The page is chosen first, so only its snapshots' rules are assembled.
    const rows: SnapshotRow[] = await this.db.query(
      `SELECT s."version", ${RULES_OF_SNAPSHOT} AS "rules", s."updated_by", s."updated_by_name", s."updated_at"
         FROM (SELECT * FROM ${SNAPSHOTS} WHERE "application_id" = $1 ORDER BY ${order} LIMIT $2 OFFSET $3) s
        ORDER BY ${order}`,
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
