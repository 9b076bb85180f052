export interface ReplicaControls {
  /** Server URL of the replica (database `postgres`). */
  url: string;
  port: number;
  start(): void;
  /** Immediate stop: connections are cut as a crash would cut them. */
  stop(): void;
}

export interface PrimaryWithReplica {
  primaryUrl: string;
  replica: ReplicaControls;
  /** DATABASE_URL of the primary and the TEST_REPLICA_* variables `testReplica()` reads. */
  env: Record<string, string>;
  stop(): void;
}

export function findPostgresBinaries(): { bin: string; reason?: undefined } | { bin?: undefined; reason: string };
export function startPrimaryWithReplica(options: {
  dir: string;
  primaryPort: number;
  replicaPort: number;
}): PrimaryWithReplica;
export function testReplica(env?: Record<string, string | undefined>): ReplicaControls | undefined;
