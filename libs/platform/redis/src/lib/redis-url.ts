/** ioredis-style connection options from a redis:// URL (BullMQ takes options, not URLs). */
export function redisConnectionOptions(url: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}

export interface ClusterNode {
  host: string;
  port: number;
}

const NODE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i;

/** `host:port,host:port` (REDIS_CLUSTER_NODES) as seed nodes; undefined for a malformed list. */
export function parseClusterNodes(list: string): ClusterNode[] | undefined {
  const nodes: ClusterNode[] = [];
  for (const entry of list.split(',').map((part) => part.trim())) {
    const match = NODE.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) return undefined;
    nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  return nodes.length > 0 ? nodes : undefined;
}
