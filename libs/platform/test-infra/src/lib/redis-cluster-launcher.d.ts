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

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number>;
