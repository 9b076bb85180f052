import fc from 'fast-check';
import { parseClusterSeeds, redisConnectionOptions } from './redis-url';

describe('parseClusterSeeds (REDIS_CLUSTER_NODES)', () => {
  it('takes host:port seeds as before, without TLS or credentials', () => {
    expect(parseClusterSeeds('10.0.0.1:7000, redis-b:7001')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b', port: 7001 },
      ],
      tls: false,
    });
  });

  it('takes rediss:// seeds with an ACL user and a percent-encoded password', () => {
    expect(parseClusterSeeds('rediss://app:p%40ss@node-1:6379,rediss://app:p%40ss@node-2:6379')).toEqual({
      nodes: [
        { host: 'node-1', port: 6379 },
        { host: 'node-2', port: 6379 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
  });

  it.each([
    ['seeds mixing TLS and plain TCP', 'rediss://a:1,redis://b:2'],
    ['seeds with different credentials', 'rediss://u:one@a:1,rediss://u:two@b:2'],
    ['a database number (a cluster has one database)', 'redis://a:1/2'],
    ['a port out of range', 'a:70000'],
    ['no port', 'rediss://a'],
    ['an empty entry', 'a:1,'],
  ])('refuses %s', (_, list) => {
    expect(parseClusterSeeds(list)).toBeUndefined();
  });

  it('never throws on any input', () => {
    fc.assert(fc.property(fc.string(), (list) => void parseClusterSeeds(list)));
  });
});

describe('redisConnectionOptions (one server)', () => {
  it('takes user and password from the URL first, then from the settings', () => {
    expect(redisConnectionOptions({ url: 'rediss://u:p@h:6380/2', username: 'x', password: 'y' })).toEqual({
      host: 'h',
      port: 6380,
      username: 'u',
      password: 'p',
      db: 2,
      tls: {},
    });
    expect(redisConnectionOptions({ url: 'redis://h', username: 'x', password: 'y' })).toMatchObject({
      username: 'x',
      password: 'y',
      tls: undefined,
    });
  });

  it('uses TLS with the given CA even for a redis:// URL (REDIS_TLS_CA_FILE implies TLS)', () => {
    expect(redisConnectionOptions({ url: 'redis://h:1', tls: { ca: 'PEM' } }).tls).toEqual({ ca: 'PEM' });
  });
});
