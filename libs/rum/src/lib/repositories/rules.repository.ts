import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '@acme/platform-persistence';
import { Filters } from '../filters';
import { Rule, RuleStatus } from '../rule.types';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const RULES = rumTable('rules');
/** The unique constraint on (application_id, rule_name). */
export const RULE_NAME_CONSTRAINT = 'uq_rules_application_name';

interface RuleRow {
  id: string;
  rule_name: string;
  description: string;
  filters: Filters;
  status: RuleStatus;
  discarded_count: string;
  created_at: Date;
  updated_at: Date;
}

const toRule = (row: RuleRow): Rule => ({
  id: row.id,
  name: row.rule_name,
  description: row.description,
  filters: row.filters,
  status: row.status,
  discardedCount: Number(row.discarded_count),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface RuleFields {
  name: string;
  description: string;
  filters: Filters;
}

/** rum.rules; every query is scoped to one application. */
@Injectable()
export class RulesRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  in(manager: Queryable): RulesRepository {
    return new RulesRepository(manager);
  }

  async insert(applicationId: string, id: string, fields: RuleFields): Promise<void> {
    await this.db.query(
      `INSERT INTO ${RULES} ("id", "application_id", "rule_name", "description", "filters") VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [id, applicationId, fields.name, fields.description, JSON.stringify(fields.filters)],
    );
  }

  /** `lock` takes the row for the caller's transaction. */
  async find(applicationId: string, ruleId: string, options: { lock?: boolean } = {}): Promise<Rule | undefined> {
    const [row]: RuleRow[] = await this.db.query(
      `SELECT * FROM ${RULES} WHERE "application_id" = $1 AND "id" = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [applicationId, ruleId],
    );
    return row && toRule(row);
  }

  async nameTaken(applicationId: string, name: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM ${RULES} WHERE "application_id" = $1 AND "rule_name" = $2`,
      [applicationId, name],
    );
    return rows.length > 0;
  }

  async update(applicationId: string, ruleId: string, fields: RuleFields): Promise<Rule | undefined> {
    const result: unknown = await this.db.query(
      `UPDATE ${RULES} SET "rule_name" = $3, "description" = $4, "filters" = $5::jsonb, "updated_at" = now(),
         "rule_version" = "rule_version" + 1
       WHERE "application_id" = $1 AND "id" = $2 RETURNING *`,
      [applicationId, ruleId, fields.name, fields.description, JSON.stringify(fields.filters)],
    );
    const [row] = returnedRows<RuleRow>(result);
    return row && toRule(row);
  }

  async setStatus(applicationId: string, ruleId: string, status: RuleStatus): Promise<Rule | undefined> {
    const result: unknown = await this.db.query(
      `UPDATE ${RULES} SET "status" = $3, "updated_at" = now(), "rule_version" = "rule_version" + 1 WHERE "application_id" = $1 AND "id" = $2 RETURNING *`,
      [applicationId, ruleId, status],
    );
    const [row] = returnedRows<RuleRow>(result);
    return row && toRule(row);
  }

  async delete(applicationId: string, ruleId: string): Promise<boolean> {
    const result: unknown = await this.db.query(
      `DELETE FROM ${RULES} WHERE "application_id" = $1 AND "id" = $2 RETURNING "id"`,
      [applicationId, ruleId],
    );
    return returnedRows(result).length > 0;
  }

  /** Rules of the application and the bytes of their stored filters (as PostgreSQL prints the jsonb). */
  async usage(applicationId: string): Promise<{ rules: number; filterBytes: number }> {
    const [row]: { rules: string; bytes: string }[] = await this.db.query(
      `SELECT count(*) AS "rules", coalesce(sum(octet_length("filters"::text)), 0) AS "bytes"
         FROM ${RULES} WHERE "application_id" = $1`,
      [applicationId],
    );
    return { rules: Number(row?.rules ?? 0), filterBytes: Number(row?.bytes ?? 0) };
  }

  async count(applicationId: string): Promise<number> {
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS "total" FROM ${RULES} WHERE "application_id" = $1`,
      [applicationId],
    );
    return Number(total);
  }

  /** In creation order; all of them without `page`. */
  async list(applicationId: string, page?: { offset: number; limit: number }): Promise<Rule[]> {
    const rows: RuleRow[] = page
      ? await this.db.query(`SELECT * FROM ${RULES} WHERE "application_id" = $1 ORDER BY "seq" LIMIT $2 OFFSET $3`, [
          applicationId,
          page.limit,
          page.offset,
        ])
      : await this.db.query(`SELECT * FROM ${RULES} WHERE "application_id" = $1 ORDER BY "seq"`, [applicationId]);
    return rows.map(toRule);
  }

  /**
   * Adds dropped-event counts to the application's rules. One short statement locking the rule rows in id
   * order, so concurrent batches queue and never deadlock; ids of other applications are ignored.
   */
  async addDiscarded(applicationId: string, counts: ReadonlyMap<string, number>): Promise<void> {
    const sorted = [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
    await this.db.query(
      `WITH c AS (SELECT * FROM unnest($2::varchar[], $3::bigint[]) AS c("id", "n")),
            locked AS (SELECT r."id" FROM ${RULES} r JOIN c ON c."id" = r."id" WHERE r."application_id" = $1 ORDER BY r."id" FOR UPDATE OF r)
       UPDATE ${RULES} r SET "discarded_count" = r."discarded_count" + c."n" FROM c, locked WHERE r."id" = c."id" AND locked."id" = r."id"`,
      [applicationId, sorted.map(([id]) => id), sorted.map(([, n]) => n)],
    );
  }
}
