import type { ConnectionOptions } from 'node:tls';

/** A Redis Cluster seed node (REDIS_CLUSTER_NODES). */
export interface ClusterNode {
  host: string;
  port: number;
}

export interface RedisOptions {
  url: string;
  /** Namespace for every key and channel of this deployment, without the trailing colon. */
  prefix: string;
  /** Seed nodes of a Redis Cluster (REDIS_CLUSTER_NODES); when set, `url` is not used. */
  clusterNodes?: ClusterNode[];
  /** ACL user and AUTH password where the URL (or the seed URLs) name none. */
  username?: string;
  password?: string;
  /** TLS to the server or to every cluster node (`rediss://`, REDIS_TLS_CA_FILE); undefined: plain TCP. */
  tls?: ConnectionOptions;
}

export abstract class RedisSettings implements RedisOptions {
  abstract readonly url: string;
  abstract readonly prefix: string;
  abstract readonly clusterNodes?: ClusterNode[];
  abstract readonly username?: string;
  abstract readonly password?: string;
  abstract readonly tls?: ConnectionOptions;
}
