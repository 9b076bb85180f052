import type { ConnectionOptions } from 'node:tls';
import type { ClusterNode, RedisOptions } from './redis.options';

/**
 * ioredis-style options for one Redis server (BullMQ takes options, not URLs): the URL's host, port, db, user and
 * password, then the settings' user and password (REDIS_USERNAME, REDIS_PASSWORD) where the URL names none. TLS for
 * `rediss://` or when the settings carry TLS options (REDIS_TLS_CA_FILE).
 */
export function redisConnectionOptions(settings: Pick<RedisOptions, 'url' | 'username' | 'password' | 'tls'>) {
  const parsed = new URL(settings.url);
  const tls: ConnectionOptions | undefined = settings.tls ?? (parsed.protocol === 'rediss:' ? {} : undefined);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : settings.username,
    password: parsed.password ? decodeURIComponent(parsed.password) : settings.password,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls,
  };
}

/** REDIS_CLUSTER_NODES: the seed nodes, and the user, password and TLS the seed URLs give (one set for all). */
export interface ClusterSeeds {
  nodes: ClusterNode[];
  username?: string;
  password?: string;
  /** Some seed is `rediss://`: every node is reached over TLS. */
  tls: boolean;
}

const NODE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i;

/**
 * `host:port` or `redis[s]://[user:password@]host:port` seeds separated by commas; undefined for a malformed list,
 * or for seeds that disagree on TLS or credentials (a cluster has one ACL and one TLS setting).
 */
export function parseClusterSeeds(list: string): ClusterSeeds | undefined {
  const seeds: ClusterSeeds = { nodes: [], tls: false };
  const schemes = new Set<string>();
  const credentials = new Set<string>();
  for (const entry of list.split(',').map((part) => part.trim())) {
    let address = entry;
    if (/^rediss?:\/\//i.test(entry)) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        return undefined;
      }
      if (url.pathname.length > 1 || url.search) return undefined;
      schemes.add(url.protocol);
      const username = url.username ? decodeURIComponent(url.username) : undefined;
      const password = url.password ? decodeURIComponent(url.password) : undefined;
      if (username || password) {
        credentials.add(JSON.stringify([username, password]));
        Object.assign(seeds, { username, password });
      }
      address = url.host;
    } else schemes.add('redis:');
    const match = NODE.exec(address);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) return undefined;
    seeds.nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  if (seeds.nodes.length === 0 || schemes.size > 1 || credentials.size > 1) return undefined;
  seeds.tls = schemes.has('rediss:');
  return seeds;
}

/** `host:port,host:port` (REDIS_CLUSTER_NODES) as seed nodes; undefined for a malformed list. */
export function parseClusterNodes(list: string): ClusterNode[] | undefined {
  return parseClusterSeeds(list)?.nodes;
}
