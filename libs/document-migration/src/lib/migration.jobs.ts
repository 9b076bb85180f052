/** The queue and its jobs, declared once: producers and the processor both import from here. */
export const MIGRATION_QUEUE = 'document-migrations';

export const MIGRATION_JOBS = { moveSlice: 'move-documents-slice' } as const;

export interface MigrationJobPayloads {
  [MIGRATION_JOBS.moveSlice]: { migrationId: string; slice: number };
}

export type MigrationJobName = keyof MigrationJobPayloads;

/** Deterministic: re-enqueueing the same slice (API retry, reconciler) never creates a second job. */
export const sliceJobId = (migrationId: string, slice: number): string => `move-${migrationId}-${slice}`;
