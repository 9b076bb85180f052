import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { isExclusionViolation, withTransaction } from '@acme/platform-persistence';
import { MigrationErrors } from './document-migration.errors';
import { MigrationState } from './migration-state';
import { MigrationQueue } from './migration.queue';
import { MigrationSettings } from './migration.settings';
import { DocumentRepository } from './repositories/document.repository';
import { MigrationSliceRepository } from './repositories/migration-slice.repository';
import { MigrationRepository } from './repositories/migration.repository';
import { OrganizationRepository } from './repositories/organization.repository';
import { planListSlices, planRangeSlices, SlicePlan } from './slice-plan';
import { WorkspaceService } from './workspace.service';

export interface StartMigrationInput {
  organizationId: string;
  targetOrganizationId: string;
  /** Absent: every document of the source organization at start. */
  documentIds?: string[];
}

export interface MigrationView {
  migrationId: string;
  status: MigrationState;
  organizationId: string;
  targetOrganizationId: string;
  totalDocuments: number;
  migratedDocuments: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  failureReason: string | null;
}

/** What a start moves: listed documents (`keys`) or the whole organization, and how it is cut into slices. */
interface MovePlan {
  total: number;
  keys?: string[];
  slices: SlicePlan[];
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** Use cases of the public API: start a migration, read its status, cancel it. */
@Injectable()
export class MigrationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly workspaces: WorkspaceService,
    private readonly organizations: OrganizationRepository,
    private readonly documents: DocumentRepository,
    private readonly migrations: MigrationRepository,
    private readonly slices: MigrationSliceRepository,
    private readonly queue: MigrationQueue,
    private readonly settings: MigrationSettings,
  ) {}

  /**
   * Creates the migration `pending` with its total, its holds and its slices in one transaction, then enqueues
   * one job per slice. The holds' exclusion constraint rejects overlap with any unfinished migration.
   */
  async start(
    workspaceId: string,
    input: StartMigrationInput,
  ): Promise<{ migrationId: string; status: MigrationState }> {
    if (input.organizationId === input.targetOrganizationId) throw MigrationErrors.sameOrganization();
    const sourceKey = await this.workspaces.organizationKey(workspaceId, input.organizationId);
    const targetKey = await this.workspaces.organizationKey(workspaceId, input.targetOrganizationId);
    const migrationId = randomUUID();
    const slices = await withTransaction(this.dataSource, async (manager) => {
      const plan = input.documentIds
        ? await this.planDocuments(manager, sourceKey, input.documentIds)
        : await this.planOrganization(manager, sourceKey);
      const seq = await this.migrations.insert(manager, {
        id: migrationId,
        workspaceId,
        sourceKey,
        targetKey,
        scope: plan.keys ? 'documents' : 'organization',
        totalDocuments: plan.total,
      });
      try {
        if (plan.keys) await this.migrations.holdDocuments(manager, migrationId, seq, sourceKey, targetKey, plan.keys);
        else await this.migrations.holdWholeOrganization(manager, migrationId, seq, sourceKey, targetKey);
      } catch (error) {
        if (isExclusionViolation(error)) throw MigrationErrors.documentsHeld();
        throw error;
      }
      await this.slices.insertPlan(manager, migrationId, plan.slices);
      return plan.slices;
    });
    await this.queue.tryEnqueueSlices(
      migrationId,
      slices.map((s) => s.slice),
    );
    return { migrationId, status: 'pending' };
  }

  /** Status from Postgres; the organization must be the migration's source or target, in the caller's workspace. */
  async status(workspaceId: string, organizationId: string, migrationId: string): Promise<MigrationView> {
    const migration = await this.migrations.findInWorkspace(workspaceId, migrationId);
    if (
      !migration ||
      (migration.sourceOrganizationId !== organizationId && migration.targetOrganizationId !== organizationId)
    ) {
      throw MigrationErrors.migrationNotFound();
    }
    return {
      migrationId: migration.id,
      status: migration.status,
      organizationId: migration.sourceOrganizationId,
      targetOrganizationId: migration.targetOrganizationId,
      totalDocuments: migration.totalDocuments,
      migratedDocuments: migration.movedDocuments,
      createdAt: new Date(migration.createdAt).toISOString(),
      startedAt: iso(migration.startedAt),
      finishedAt: iso(migration.finishedAt),
      failureReason: migration.failureReason ?? migration.cancelledBy,
    };
  }

  /** Cancels an unfinished migration (who cancelled is kept as its reason): documents already moved stay moved, the rest stay where they are. */
  async cancel(workspaceId: string, organizationId: string, migrationId: string): Promise<MigrationView> {
    const current = await this.status(workspaceId, organizationId, migrationId);
    const cancelled = await withTransaction(this.dataSource, (manager) =>
      this.migrations.cancelInWorkspace(manager, workspaceId, migrationId, cancelledBy(workspaceId, organizationId)),
    );
    if (!cancelled) throw MigrationErrors.migrationFinished(current.status);
    return this.status(workspaceId, organizationId, migrationId);
  }

  private async planDocuments(manager: EntityManager, sourceKey: string, documentIds: string[]): Promise<MovePlan> {
    // FOR SHARE: a concurrent move of one of these documents either commits first (then it is missing here) or waits.
    const keys = await this.documents.lockKeysByIds(manager, sourceKey, documentIds);
    if (keys.length !== documentIds.length)
      throw MigrationErrors.documentsNotFound(await this.documents.missingIds(manager, sourceKey, documentIds));
    return { total: keys.length, keys, slices: planListSlices(keys, this.settings.sliceSize) };
  }

  private async planOrganization(manager: EntityManager, sourceKey: string): Promise<MovePlan> {
    await this.organizations.lockForWholeMove(manager, sourceKey);
    const { total, minKey, maxKey } = await this.documents.keyRange(manager, sourceKey);
    return { total, slices: planRangeSlices(total, minKey, maxKey, this.settings.sliceSize, this.settings.maxSlices) };
  }
}

/** The reason a cancelled migration shows: the wire reports it as `failed` (docs/migration-worker.md#states). */
export const cancelledBy = (workspaceId: string, organizationId: string) =>
  `Cancelled through /migrate/cancel by workspace ${workspaceId} (request for organization ${organizationId}).`;
