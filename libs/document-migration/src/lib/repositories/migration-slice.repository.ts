import { Injectable } from '@nestjs/common';
import { MigrationState } from '../migration-state';
import { SlicePlan } from '../slice-plan';
import { MigrationScope } from './migration.repository';
import { Queryable, TABLES } from './migration-tables';

/** A slice with what moving its next batch needs from its migration. */
export interface SliceToMove {
  status: MigrationState;
  scope: MigrationScope;
  sourceKey: string;
  targetKey: string;
  cursor: string;
  keyTo: string;
  done: boolean;
}

interface SliceRow {
  status: MigrationState;
  scope: MigrationScope;
  source: string;
  target: string;
  cursor: string;
  key_to: string;
  done: boolean;
}

/** A migration's slices: each a key range with its checkpoint (`cursor`), documents moved, and whether it is done. */
@Injectable()
export class MigrationSliceRepository {
  async insertPlan(manager: Queryable, migrationId: string, slices: SlicePlan[]): Promise<void> {
    await manager.query(
      `INSERT INTO ${TABLES.migrationSlices} ("migration_id", "slice", "key_from", "key_to", "cursor")
       SELECT $1, s, f, t, f FROM unnest($2::int[], $3::bigint[], $4::bigint[]) AS x(s, f, t)`,
      [migrationId, slices.map((s) => s.slice), slices.map((s) => s.keyFrom), slices.map((s) => s.keyTo)],
    );
  }

  /** The slice locked FOR UPDATE (one runner at a time) and its migration FOR SHARE (no state change meanwhile). */
  async lockForBatch(manager: Queryable, migrationId: string, slice: number): Promise<SliceToMove | undefined> {
    const rows: SliceRow[] = await manager.query(
      `SELECT m."status", m."scope", m."source_organization_key"::text AS "source", m."target_organization_key"::text AS "target",
              s."cursor"::text AS "cursor", s."key_to"::text AS "key_to", s."done"
       FROM ${TABLES.migrations} m JOIN ${TABLES.migrationSlices} s ON s."migration_id" = m."id"
       WHERE m."id" = $1 AND s."slice" = $2
       FOR SHARE OF m FOR UPDATE OF s`,
      [migrationId, slice],
    );
    const row = rows[0];
    return (
      row && {
        status: row.status,
        scope: row.scope,
        sourceKey: row.source,
        targetKey: row.target,
        cursor: row.cursor,
        keyTo: row.key_to,
        done: row.done,
      }
    );
  }

  /** Advances the slice's checkpoint, in the transaction that moved the batch. */
  async checkpoint(
    manager: Queryable,
    migrationId: string,
    slice: number,
    progress: { cursor: string; moved: number; done: boolean },
  ): Promise<void> {
    await manager.query(
      `UPDATE ${TABLES.migrationSlices} SET "cursor" = $3, "moved" = "moved" + $4, "done" = $5 WHERE "migration_id" = $1 AND "slice" = $2`,
      [migrationId, slice, progress.cursor, progress.moved, progress.done],
    );
  }
}
