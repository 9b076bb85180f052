/** Tunables of the migration domain; the app fills them from its env. */
export abstract class MigrationSettings {
  /** Documents moved per transaction (one checkpoint each). */
  abstract readonly batchSize: number;
  /** Documents per job: a large migration is split so several workers share it. */
  abstract readonly sliceSize: number;
  abstract readonly maxSlices: number;
  /** BullMQ attempts per job before the migration is failed with the last error as its reason. */
  abstract readonly jobAttempts: number;
  abstract readonly jobBackoffMs: number;
}
