import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { mapUniqueViolation } from '@acme/platform-persistence';
import { Filters, findFiltersProblem, normalizeFilters } from './filters';
import { RuleSetStore } from './rule-set.store';
import { RulesErrors } from './rules.errors';
import { Actor, Page, RuleRow, RuleStatus, RuleView, toRuleView } from './rule.types';

export interface NewRule {
  rule_name: string;
  description?: string;
  filters: Filters;
}

export type RulePatch = Partial<NewRule>;

/** Use cases on an application's rules; every change goes through the snapshot store. Callers check access first. */
@Injectable()
export class RulesService {
  constructor(
    private readonly db: DataSource,
    private readonly store: RuleSetStore,
  ) {}

  async create(actor: Actor, applicationId: string, input: NewRule): Promise<{ rule_id: string; rule_name: string }> {
    const filters = this.checkedFilters(input.filters);
    const id = randomBytes(12).toString('hex');
    await this.mapNameConflict(() =>
      this.store.change(actor, applicationId, async (manager) => {
        await this.ensureNameFree(manager, applicationId, input.rule_name);
        await manager.query(
          `INSERT INTO "rum"."rules" ("id", "application_id", "rule_name", "description", "filters") VALUES ($1, $2, $3, $4, $5::jsonb)`,
          [id, applicationId, input.rule_name, input.description ?? '', JSON.stringify(filters)],
        );
      }),
    );
    return { rule_id: id, rule_name: input.rule_name };
  }

  async update(actor: Actor, applicationId: string, ruleId: string, patch: RulePatch): Promise<RuleView> {
    const filters = patch.filters === undefined ? undefined : this.checkedFilters(patch.filters);
    return this.mapNameConflict(() =>
      this.store.change(actor, applicationId, async (manager) => {
        const current = await this.lockRule(manager, applicationId, ruleId);
        if (patch.rule_name !== undefined && patch.rule_name !== current.rule_name) await this.ensureNameFree(manager, applicationId, patch.rule_name);
        const [[row]]: [RuleRow[], number] = await manager.query(
          `UPDATE "rum"."rules" SET "rule_name" = $3, "description" = $4, "filters" = $5::jsonb, "updated_at" = now()
           WHERE "application_id" = $1 AND "id" = $2 RETURNING *`,
          [applicationId, ruleId, patch.rule_name ?? current.rule_name, patch.description ?? current.description, JSON.stringify(filters ?? current.filters)],
        );
        return toRuleView(row);
      }),
    );
  }

  async remove(actor: Actor, applicationId: string, ruleId: string): Promise<void> {
    await this.store.change(actor, applicationId, async (manager) => {
      await this.lockRule(manager, applicationId, ruleId);
      await manager.query(`DELETE FROM "rum"."rules" WHERE "application_id" = $1 AND "id" = $2`, [applicationId, ruleId]);
    });
  }

  /** Enabling an enabled rule still records a snapshot: every accepted change call is a version. */
  async setStatus(actor: Actor, applicationId: string, ruleId: string, status: RuleStatus): Promise<RuleView> {
    return this.store.change(actor, applicationId, async (manager) => {
      await this.lockRule(manager, applicationId, ruleId);
      // TypeORM answers an UPDATE with [rows, affected].
      const [[row]]: [RuleRow[], number] = await manager.query(
        `UPDATE "rum"."rules" SET "status" = $3, "updated_at" = now() WHERE "application_id" = $1 AND "id" = $2 RETURNING *`,
        [applicationId, ruleId, status],
      );
      return toRuleView(row);
    });
  }

  async info(applicationId: string, ruleId: string): Promise<RuleView> {
    const [row]: RuleRow[] = await this.db.query(`SELECT * FROM "rum"."rules" WHERE "application_id" = $1 AND "id" = $2`, [applicationId, ruleId]);
    if (!row) throw RulesErrors.ruleNotFound();
    return toRuleView(row);
  }

  /** In creation order. */
  async list(applicationId: string, page: number, limit: number): Promise<Page<RuleView>> {
    const [{ total }]: { total: string }[] = await this.db.query(`SELECT count(*) AS "total" FROM "rum"."rules" WHERE "application_id" = $1`, [applicationId]);
    const rows: RuleRow[] = await this.db.query(
      `SELECT * FROM "rum"."rules" WHERE "application_id" = $1 ORDER BY "seq" LIMIT $2 OFFSET $3`,
      [applicationId, limit, page * limit],
    );
    const count = Number(total);
    return { total: count, has_next_page: (page + 1) * limit < count, items: rows.map(toRuleView) };
  }

  private checkedFilters(filters: Filters): Filters {
    const problem = findFiltersProblem(filters);
    if (problem) throw RulesErrors.invalidFilters(problem);
    return normalizeFilters(filters);
  }

  private async lockRule(manager: EntityManager, applicationId: string, ruleId: string): Promise<RuleRow> {
    const [row]: RuleRow[] = await manager.query(`SELECT * FROM "rum"."rules" WHERE "application_id" = $1 AND "id" = $2 FOR UPDATE`, [applicationId, ruleId]);
    if (!row) throw RulesErrors.ruleNotFound();
    return row;
  }

  private async ensureNameFree(manager: EntityManager, applicationId: string, name: string): Promise<void> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM "rum"."rules" WHERE "application_id" = $1 AND "rule_name" = $2`, [applicationId, name]);
    if (rows.length > 0) throw RulesErrors.ruleNameTaken();
  }

  private mapNameConflict<T>(work: () => Promise<T>): Promise<T> {
    return mapUniqueViolation(work, (constraint) => {
      if (constraint === 'uq_rules_application_name') return RulesErrors.ruleNameTaken();
      throw new Error(`unexpected unique violation on ${constraint ?? 'unknown constraint'}`);
    });
  }
}
