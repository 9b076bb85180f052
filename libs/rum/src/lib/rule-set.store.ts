import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { safeErrorMessage } from '@acme/platform-observability';
import { ReadReplicas, withTransaction } from '@acme/platform-persistence';
import { RedisPubSub } from '@acme/platform-redis';
import { ApplicationsRepository } from './repositories/applications.repository';
import { RuleSetSnapshotsRepository, SnapshotOrder } from './repositories/rule-set-snapshots.repository';
import { Actor, Page, pageOf, PageRequest, RULE_SET_CHANNEL, RuleSetSnapshot, SnapshotRule } from './rule.types';
import { RumErrors } from './rum.errors';

export type HistoryOrder = SnapshotOrder;

/**
 * The append-only snapshot store. Every change to an application's rules runs inside one transaction that
 * first locks the application row, so changes to one application are serialised: each gets version + 1 and
 * none is lost. The (application_id, version) unique constraint is the backstop. A snapshot references rule
 * versions (each stored once, when its rule changes), so history grows linearly with changes.
 */
@Injectable()
export class RuleSetStore {
  private readonly logger = new Logger(RuleSetStore.name);

  constructor(
    private readonly db: DataSource,
    private readonly applications: ApplicationsRepository,
    private readonly snapshots: RuleSetSnapshotsRepository,
    private readonly pubsub: RedisPubSub,
    private readonly replicas: ReadReplicas,
  ) {}

  async change<T>(actor: Actor, applicationId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const { result, version } = await withTransaction(this.db, async (manager) => {
      const current = await this.applications.in(manager).lockRuleSetVersion(applicationId);
      if (current === undefined) throw RumErrors.applicationAccessDenied();
      const outcome = await work(manager);
      const next = current + 1;
      // The snapshot is taken from the rules as `work` left them; unchanged rules add only a reference.
      await this.snapshots.in(manager).record(applicationId, next, actor);
      await this.applications.in(manager).setRuleSetVersion(applicationId, next);
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
    return (await this.snapshots.rulesAt(applicationId, version)) ?? [];
  }

  async history(
    applicationId: string,
    options: PageRequest & { orderBy: HistoryOrder; asc: boolean },
  ): Promise<Page<RuleSetSnapshot>> {
    // History tolerates replication lag: a read replica answers when there is one.
    return this.replicas.read(async (db) => {
      const snapshots = this.snapshots.in(db);
      const total = await snapshots.count(applicationId);
      const items = await snapshots.list(applicationId, {
        orderBy: options.orderBy,
        asc: options.asc,
        offset: options.page * options.limit,
        limit: options.limit,
      });
      return pageOf(items, total, options);
    });
  }
}
