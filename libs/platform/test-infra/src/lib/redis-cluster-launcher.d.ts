export interface StartedRedisCluster {
  /** Seed list as REDIS_CLUSTER_NODES takes it. */
  nodes: string;
  ports: number[];
  masterPorts(): number[];
  /** SIGKILLs one node. */
  kill(port: number): Promise<void>;
  /** Kills every node and removes their files. */
  stop(): Promise<void>;
}

export function startRedisCluster(options: {
  dir: string;
  nodeTimeoutMs?: number;
  ports?: number[];
}): Promise<StartedRedisCluster>;

/**
 * A TCP port nobody listens on right now, picked at random below Linux's ephemeral range (20000-32767), so no
 * outgoing connection can hold it before the caller listens on it.
 */
export function freePort(): Promise<number>;
