import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { RedisPubSub } from '@acme/platform-redis';
import { safeErrorMessage } from '@acme/platform-observability';
import { Client, ClientGrant } from './oauth.entities';
import { OAuthSettings } from './oauth.settings';
import { ClientGrantRepository } from './repositories/client-grant.repository';
import { ClientRepository } from './repositories/client.repository';

export const CLIENT_CHANGES_CHANNEL = 'oauth:clients:changed';

/** What a token request needs to know about a client. */
export interface CachedClient {
  clientId: string;
  secretDigest: string;
  isFirstParty: boolean;
  grantTypes: string[];
  /** `private_key_jwt`: the client authenticates with signed assertions only, never its secret. */
  tokenEndpointAuthMethod: string;
}

interface Entry {
  loadedAt: number;
  /** null: no such client (cached too, so a retried bad id does not query each time). */
  client: CachedClient | null;
  /** Granted scopes by audience; null: no grant. */
  grants: Map<string, readonly string[] | null>;
}

/** Backstop for a change notification lost while the subscriber connection was down. */
const MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * Each instance's copy of the clients and grants the token endpoint reads, loaded lazily, so a token request
 * costs no database query. Every write of a client or grant (on any instance) publishes the client id on
 * Redis pub/sub and every instance forgets that client and its grants; until the subscription is confirmed
 * nothing is cached. A load that raced with a notification is not kept (generation check).
 * When a reload fails (PostgreSQL down) the last loaded entry keeps serving for up to
 * `credentialStaleMaxSeconds` past its reload age (stale-if-error, docs/management-api.md).
 */
@Injectable()
export class CredentialCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CredentialCache.name);
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening = false;
  private unsubscribe?: () => void;
  private readonly staleMaxMs: number;
  private lastStaleLog = 0;

  constructor(
    private readonly clients: ClientRepository,
    private readonly grantRows: ClientGrantRepository,
    private readonly pubsub: RedisPubSub,
    settings: OAuthSettings,
  ) {
    this.staleMaxMs = (settings.credentialStaleMaxSeconds ?? 300) * 1000;
  }

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(CLIENT_CHANGES_CHANNEL, (clientId) => this.forget(clientId));
    this.listening = true;
  }

  onApplicationShutdown(): void {
    this.listening = false;
    this.unsubscribe?.();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  async client(clientId: string): Promise<CachedClient | null> {
    const entry = this.fresh(clientId);
    if (entry) return entry.client;
    const generation = this.generation;
    let row: Client | null;
    try {
      row = await this.clients.findById(clientId);
    } catch (error) {
      const stale = this.staleFor(clientId, error);
      if (stale) return stale.client;
      throw error;
    }
    const client = row
      ? {
          clientId: row.clientId,
          secretDigest: row.secretDigest,
          isFirstParty: row.isFirstParty,
          grantTypes: row.grantTypes,
          tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
        }
      : null;
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(clientId, { loadedAt: Date.now(), client, grants: new Map() });
    }
    return client;
  }

  /** The scopes granted to a client for an audience, or null when there is no grant. */
  async grantedScopes(clientId: string, audience: string): Promise<readonly string[] | null> {
    const entry = this.fresh(clientId);
    const known = entry?.grants.get(audience);
    if (known !== undefined) return known;
    const generation = this.generation;
    let row: ClientGrant | null;
    try {
      row = await this.grantRows.findByClientAndAudience(clientId, audience);
    } catch (error) {
      const stale = this.staleFor(clientId, error)?.grants.get(audience);
      if (stale !== undefined) return stale;
      throw error;
    }
    const scopes = row ? row.scope : null;
    if (entry && generation === this.generation && this.entries.get(clientId) === entry)
      entry.grants.set(audience, scopes);
    return scopes;
  }

  /** Forgets a client here and tells every other instance; a failed publish is logged, never fails the write. */
  async changed(clientId: string): Promise<void> {
    this.forget(clientId);
    try {
      await this.pubsub.publish(CLIENT_CHANGES_CHANNEL, clientId);
    } catch (error) {
      this.logger.warn(`Could not publish a client change: ${safeErrorMessage(error)}`);
    }
  }

  private forget(clientId: string): void {
    this.generation += 1;
    this.entries.delete(clientId);
  }

  /** The entry when it is younger than its reload age; an older one stays, for stale-if-error. */
  private fresh(clientId: string): Entry | undefined {
    const entry = this.entries.get(clientId);
    if (!entry) return undefined;
    const age = Date.now() - entry.loadedAt;
    if (age < MAX_AGE_MS) return entry;
    if (age >= MAX_AGE_MS + this.staleMaxMs) this.entries.delete(clientId);
    return undefined;
  }

  /** The last loaded entry while a reload fails, within the stale bound; undefined otherwise. */
  private staleFor(clientId: string, error: unknown): Entry | undefined {
    const entry = this.entries.get(clientId);
    if (!entry || Date.now() - entry.loadedAt >= MAX_AGE_MS + this.staleMaxMs) return undefined;
    const now = Date.now();
    if (now - this.lastStaleLog >= 10_000) {
      this.lastStaleLog = now;
      this.logger.warn({
        event: 'credential_cache_stale',
        reason: safeErrorMessage(error),
        msg: 'Reloading clients failed; serving the last loaded entries',
      });
    }
    return entry;
  }
}
