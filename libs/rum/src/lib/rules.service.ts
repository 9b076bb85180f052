import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { mapUniqueViolation } from '@acme/platform-persistence';
import { Filters, findFiltersProblem, normalizeFilters } from './filters';
import { RULE_NAME_CONSTRAINT, RulesRepository } from './repositories/rules.repository';
import { RuleSetStore } from './rule-set.store';
import { Actor, Page, pageOf, PageRequest, Rule, RuleStatus } from './rule.types';
import { RumErrors } from './rum.errors';

export interface NewRule {
  name: string;
  description?: string;
  filters: Filters;
}

export type RulePatch = Partial<NewRule>;

/**
 * Caps on what one application stores (issue 25; apps/rum-ingestion/README.md): every change snapshots the rule
 * set, so the rule set's size bounds each snapshot.
 */
export const RULE_SET_LIMITS = { maxRules: 100, maxFilterBytes: 1024 * 1024 } as const;

/** Use cases on an application's rules; every change goes through the snapshot store. Callers check access first. */
@Injectable()
export class RulesService {
  constructor(
    private readonly rules: RulesRepository,
    private readonly store: RuleSetStore,
  ) {}

  async create(actor: Actor, applicationId: string, input: NewRule): Promise<{ id: string; name: string }> {
    const filters = this.checkedFilters(input.filters);
    const id = randomBytes(12).toString('hex');
    await this.mapNameConflict(() =>
      this.store.change(actor, applicationId, async (manager) => {
        const rules = this.rules.in(manager);
        if (await rules.nameTaken(applicationId, input.name)) throw RumErrors.ruleNameTaken();
        await rules.insert(applicationId, id, { name: input.name, description: input.description ?? '', filters });
        await this.checkLimits(manager, applicationId);
      }),
    );
    return { id, name: input.name };
  }

  async update(actor: Actor, applicationId: string, ruleId: string, patch: RulePatch): Promise<Rule> {
    const filters = patch.filters === undefined ? undefined : this.checkedFilters(patch.filters);
    return this.mapNameConflict(() =>
      this.store.change(actor, applicationId, async (manager) => {
        const rules = this.rules.in(manager);
        const current = await this.lockRule(manager, applicationId, ruleId);
        if (
          patch.name !== undefined &&
          patch.name !== current.name &&
          (await rules.nameTaken(applicationId, patch.name))
        ) {
          throw RumErrors.ruleNameTaken();
        }
        const fields = {
          name: patch.name ?? current.name,
          description: patch.description ?? current.description,
          filters: filters ?? current.filters,
        };
        const updated = this.found(await rules.update(applicationId, ruleId, fields));
        if (filters !== undefined) await this.checkLimits(manager, applicationId);
        return updated;
      }),
    );
  }

  async remove(actor: Actor, applicationId: string, ruleId: string): Promise<void> {
    await this.store.change(actor, applicationId, async (manager) => {
      await this.lockRule(manager, applicationId, ruleId);
      await this.rules.in(manager).delete(applicationId, ruleId);
    });
  }

  /** Enabling an enabled rule still records a snapshot: every accepted change call is a version. */
  async setStatus(actor: Actor, applicationId: string, ruleId: string, status: RuleStatus): Promise<Rule> {
    return this.store.change(actor, applicationId, async (manager) => {
      await this.lockRule(manager, applicationId, ruleId);
      return this.found(await this.rules.in(manager).setStatus(applicationId, ruleId, status));
    });
  }

  async info(applicationId: string, ruleId: string): Promise<Rule> {
    return this.found(await this.rules.find(applicationId, ruleId));
  }

  /** In creation order. */
  async list(applicationId: string, request: PageRequest): Promise<Page<Rule>> {
    const total = await this.rules.count(applicationId);
    const items = await this.rules.list(applicationId, { offset: request.page * request.limit, limit: request.limit });
    return pageOf(items, total, request);
  }

  /**
   * Checked after the write, inside the change's transaction (the application row is locked, so changes are
   * serialised): measured as stored, and a refusal rolls the write back.
   */
  private async checkLimits(manager: EntityManager, applicationId: string): Promise<void> {
    const usage = await this.rules.in(manager).usage(applicationId);
    if (usage.rules > RULE_SET_LIMITS.maxRules) throw RumErrors.tooManyRules(RULE_SET_LIMITS.maxRules);
    if (usage.filterBytes > RULE_SET_LIMITS.maxFilterBytes)
      throw RumErrors.filtersTooLarge(RULE_SET_LIMITS.maxFilterBytes);
  }

  private checkedFilters(filters: Filters): Filters {
    const problem = findFiltersProblem(filters);
    if (problem) throw RumErrors.invalidFilters(problem);
    return normalizeFilters(filters);
  }

  private async lockRule(manager: EntityManager, applicationId: string, ruleId: string): Promise<Rule> {
    return this.found(await this.rules.in(manager).find(applicationId, ruleId, { lock: true }));
  }

  private found(rule: Rule | undefined): Rule {
    if (!rule) throw RumErrors.ruleNotFound();
    return rule;
  }

  private mapNameConflict<T>(work: () => Promise<T>): Promise<T> {
    return mapUniqueViolation(work, (constraint) => {
      if (constraint === RULE_NAME_CONSTRAINT) return RumErrors.ruleNameTaken();
      throw new Error(`unexpected unique violation on ${constraint ?? 'unknown constraint'}`);
    });
  }
}
