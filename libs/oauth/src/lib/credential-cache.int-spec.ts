import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { createDataSource } from '@acme/platform-persistence';
import { RedisPubSub } from '@acme/platform-redis';
import {
  createTestDatabase,
  createTestRedisPrefix,
  testRedisUrl,
  TestDatabase,
  waitFor,
} from '@acme/platform-test-infra';
import { OAUTH_MIGRATIONS } from '../migrations';
import { CLIENT_CHANGES_CHANNEL, CredentialCache } from './credential-cache';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';
import { Client, ClientGrant, SigningKey } from './oauth.entities';
import { OAuthSettings } from './oauth.settings';
import { ClientGrantRepository, ClientRepository } from './repositories';

/** Real PostgreSQL and Redis; the database is made unreachable by closing the data source's pool. */
describe('CredentialCache stale-if-error', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let redis: Redis;
  let pubsub: RedisPubSub;
  let now = Date.now();
  const realNow = Date.now;

  beforeAll(async () => {
    database = await createTestDatabase('credential_cache');
    dataSource = createDataSource({
      url: database.url,
      schema: MANAGEMENT_SCHEMA,
      migrations: OAUTH_MIGRATIONS,
      entities: [Client, ClientGrant, SigningKey],
    });
    await dataSource.initialize();
    await dataSource.query('CREATE SCHEMA IF NOT EXISTS management');
    await dataSource.runMigrations();
    await dataSource.query(
      `INSERT INTO management.clients (client_id, name, secret_digest, is_first_party, grant_types, created_at) VALUES ('c1', 'one', 'digest', true, '{client_credentials}', now())`,
    );
    redis = new Redis(testRedisUrl());
    pubsub = new RedisPubSub(redis, createTestRedisPrefix('credential-cache'));
    Date.now = () => now;
  });
  afterAll(async () => {
    Date.now = realNow;
    await pubsub?.onApplicationShutdown();
    redis?.disconnect();
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  async function cacheWithStaleMax(seconds: number, channel = pubsub): Promise<CredentialCache> {
    const settings = { credentialStaleMaxSeconds: seconds } as OAuthSettings;
    const cache = new CredentialCache(
      new ClientRepository(dataSource.getRepository(Client)),
      new ClientGrantRepository(dataSource.getRepository(ClientGrant)),
      channel,
      settings,
    );
    await cache.onModuleInit();
    return cache;
  }

  const served = async (cache: CredentialCache) => (await cache.client('c1').catch(() => undefined))?.clientId === 'c1';

  it('serves the last loaded client while reloads fail, up to the bound, and forgets it on a change at once', async () => {
    const revoked = await cacheWithStaleMax(60);
    // Its own channel: the change published below does not reach it, so only the bound ends its stale entry.
    const otherChannel = new RedisPubSub(redis, createTestRedisPrefix('credential-cache-other'));
    const isolated = await cacheWithStaleMax(60, otherChannel);
    expect([await served(revoked), await served(isolated)]).toEqual([true, true]);
    await dataSource.destroy();

    now += 11_000;
    expect([await served(revoked), await served(isolated)]).toEqual([true, true]);
    await pubsub.publish(CLIENT_CHANGES_CHANNEL, 'c1');
    await waitFor(async () => !(await served(revoked)), { what: 'the changed client to stop being served' });
    expect(await served(isolated)).toBe(true);

    now += 59_000;
    expect(await served(isolated)).toBe(false);
    await otherChannel.onApplicationShutdown();
  });
});
