import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ReadReplicas } from '@acme/platform-persistence';
import { RedisPubSub } from '@acme/platform-redis';
import { RulesErrors } from './rules.errors';
import { Actor, Page, RULE_SET_CHANNEL, RuleRow, SnapshotRule, SnapshotView, toRuleView, unixSeconds } from './rule.types';
import { safeErrorMessage } from '@acme/platform-observability';

export type HistoryOrder = 'updated_at' | 'version';

interface SnapshotRow {
  version: number;
  rules: SnapshotRule[];
  updated_by: string;
  updated_by_name: string;
  updated_at: Date;
}

/**
 * The append-only snapshot store. Every change to an application's rules runs inside one transaction that
 * first locks the application row, so changes to one application are serialised: each gets version + 1 and
 * none is lost. The (application_id, version) unique constraint is the backstop.
 */
@Injectable()
export class RuleSetStore {
  private readonly logger = new Logger(RuleSetStore.name);

  constructor(
    private readonly db: DataSource,
    private readonly pubsub: RedisPubSub,
    private readonly replicas: ReadReplicas,
  ) {}

  async change<T>(actor: Actor, applicationId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { result, version } = await this.db.transaction(async (manager) => {
      const [app]: { rule_set_version: number }[] = await manager.query(
        `SELECT "rule_set_version" FROM "rum"."applications" WHERE "id" = $1 FOR UPDATE`,
        [applicationId],
      );
      if (!app) throw RulesErrors.noAccess();
      const outcome = await work(manager);
      const rows: RuleRow[] = await manager.query(`SELECT * FROM "rum"."rules" WHERE "application_id" = $1 ORDER BY "seq"`, [applicationId]);
      const rules: SnapshotRule[] = rows.map((row) => {
        const { discarded_count: _ignored, ...rule } = toRuleView(row);
        return rule;
      });
      const next = app.rule_set_version + 1;
      await manager.query(
        `INSERT INTO "rum"."rule_set_snapshots" ("application_id", "version", "rules", "updated_by", "updated_by_name") VALUES ($1, $2, $3::jsonb, $4, $5)`,
        [applicationId, next, JSON.stringify(rules), actor.id, actor.name],
      );
      await manager.query(`UPDATE "rum"."applications" SET "rule_set_version" = $2 WHERE "id" = $1`, [applicationId, next]);
      return { result: outcome, version: next };
    });
    // After commit: other instances recompile now; the ingest path's version check covers a lost message.
    await this.pubsub
      .publish(RULE_SET_CHANNEL, JSON.stringify({ application_id: applicationId, version }))
      .catch((error: Error) => this.logger.warn(`rule-set notification failed: ${safeErrorMessage(error)}`));
    return result;
  }

  /** The rules of one version (empty before the first change). */
  async rulesAt(applicationId: string, version: number): Promise<SnapshotRule[]> {
    if (version === 0) return [];
    const [row]: { rules: SnapshotRule[] }[] = await this.db.query(
      `SELECT "rules" FROM "rum"."rule_set_snapshots" WHERE "application_id" = $1 AND "version" = $2`,
      [applicationId, version],
    );
    return row?.rules ?? [];
  }

  async history(applicationId: string, options: { page: number; limit: number; orderBy: HistoryOrder; asc: boolean }): Promise<Page<SnapshotView>> {
    const direction = options.asc ? 'ASC' : 'DESC';
    // Versions break ties between snapshots written in the same instant, so paging is stable.
    const order = options.orderBy === 'updated_at' ? `"updated_at" ${direction}, "version" ${direction}` : `"version" ${direction}`;
    // History tolerates replication lag: a read replica answers when there is one.
    const { total, rows } = await this.replicas.read(async (db) => {
      const [{ total }]: { total: string }[] = await db.query(
        `SELECT count(*) AS "total" FROM "rum"."rule_set_snapshots" WHERE "application_id" = $1`,
        [applicationId],
      );
      const rows: SnapshotRow[] = await db.query(
        `SELECT "version", "rules", "updated_by", "updated_by_name", "updated_at" FROM "rum"."rule_set_snapshots"
         WHERE "application_id" = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`,
        [applicationId, options.limit, options.page * options.limit],
      );
      return { total, rows };
    });
    const count = Number(total);
    return {
      total: count,
      has_next_page: (options.page + 1) * options.limit < count,
      items: rows.map((row) => ({
        version: row.version,
        rules: row.rules,
        updated_by: Number(row.updated_by),
        updated_by_name: row.updated_by_name,
        updated_at: unixSeconds(row.updated_at),
      })),
    };
  }
}
