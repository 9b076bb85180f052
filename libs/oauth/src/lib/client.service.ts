import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { digestSecret, generateSecret, safeEqual } from '@acme/platform-auth';
import { CredentialCache } from './credential-cache';
import { OAuthErrors } from './oauth.errors';
import { Client } from './oauth.entities';
import { GrantType, OAuthSettings } from './oauth.settings';
import { ClientRepository } from './repositories/client.repository';

/** Settings a client carries for its owners' tools; stored and returned as given (validated by the app). */
export interface ClientSettingsInput {
  description?: string | null;
  appType?: string | null;
  clientMetadata?: Record<string, string>;
  jwtConfiguration?: Record<string, unknown> | null;
  tokenEndpointAuthMethod?: string;
}

export interface CreateClientCommand extends ClientSettingsInput {
  name: string;
  clientId?: string;
  isFirstParty?: boolean;
  grantTypes?: GrantType[];
}

export type UpdateClientCommand = Partial<Omit<CreateClientCommand, 'clientId'>>;

/** What a successful client authentication yields (enforcement and token issuing read it). */
export interface AuthenticatedClient {
  clientId: string;
  isFirstParty: boolean;
  grantTypes: string[];
  /** The client id is an `https://` URI (a client identified by its metadata document). */
  isCimd: boolean;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Auth0-like client ids: 32 alphanumerics. */
export function newClientId(): string {
  return Array.from(randomBytes(32), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

export const toAuthenticated = (
  client: Pick<Client, 'clientId' | 'isFirstParty' | 'grantTypes'>,
): AuthenticatedClient => ({
  clientId: client.clientId,
  isFirstParty: client.isFirstParty,
  grantTypes: client.grantTypes,
  isCimd: client.clientId.startsWith('https://'),
});

/** The client registry. Secrets are long random values, stored as an HMAC and compared in constant time. */
@Injectable()
export class ClientService {
  private readonly dummyDigest: string;

  constructor(
    private readonly settings: OAuthSettings,
    private readonly clients: ClientRepository,
    private readonly cache: CredentialCache,
  ) {
    this.dummyDigest = this.digest(generateSecret());
  }

  private digest(secret: string): string {
    return digestSecret(secret, this.settings.clientSecretKey);
  }

  async create(command: CreateClientCommand): Promise<{ client: Client; clientSecret: string }> {
    const clientSecret = generateSecret('', 48);
    const row = {
      clientId: command.clientId ?? newClientId(),
      name: command.name,
      secretDigest: this.digest(clientSecret),
      isFirstParty: command.isFirstParty ?? true,
      grantTypes: command.grantTypes ?? ['client_credentials'],
      description: command.description ?? null,
      appType: command.appType ?? null,
      clientMetadata: command.clientMetadata ?? {},
      jwtConfiguration: command.jwtConfiguration ?? null,
      tokenEndpointAuthMethod: command.tokenEndpointAuthMethod ?? 'client_secret_post',
    };
    if (!(await this.clients.insert(row))) throw OAuthErrors.clientConflict();
    // Another instance may have cached this id as unknown.
    await this.cache.changed(row.clientId);
    return { client: await this.get(row.clientId), clientSecret };
  }

  /** Creates or re-keys a client with a known secret (the bootstrap client); safe when instances race. */
  async upsertWithSecret(clientId: string, clientSecret: string, name: string): Promise<void> {
    await this.clients.upsertWithSecretDigest(clientId, name, this.digest(clientSecret));
    await this.cache.changed(clientId);
  }

  async get(clientId: string): Promise<Client> {
    const client = await this.clients.findById(clientId);
    if (!client) throw OAuthErrors.clientNotFound(clientId);
    return client;
  }

  async exists(clientId: string): Promise<boolean> {
    return this.clients.existsById(clientId);
  }

  async list(page: number, perPage: number): Promise<{ clients: Client[]; total: number }> {
    return this.clients.listPage(page, perPage);
  }

  /** Changes only the given fields; every instance forgets its cached copy (grant types gate /oauth/token). */
  async update(clientId: string, patch: UpdateClientCommand): Promise<Client> {
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    if (Object.keys(changes).length > 0) {
      if (!(await this.clients.update(clientId, changes))) throw OAuthErrors.clientNotFound(clientId);
      await this.cache.changed(clientId);
    }
    return this.get(clientId);
  }

  /** A new secret, shown once; the old one stops working on every instance at once (cache change). */
  async rotateSecret(clientId: string): Promise<{ client: Client; clientSecret: string }> {
    const clientSecret = generateSecret('', 48);
    if (!(await this.clients.update(clientId, { secretDigest: this.digest(clientSecret) })))
      throw OAuthErrors.clientNotFound(clientId);
    await this.cache.changed(clientId);
    return { client: await this.get(clientId), clientSecret };
  }

  async delete(clientId: string): Promise<void> {
    if (!(await this.clients.deleteById(clientId))) throw OAuthErrors.clientNotFound(clientId);
    await this.cache.changed(clientId);
  }

  /**
   * Undefined when the id is unknown or the secret wrong; the same work is done in both cases. Reads the
   * instance's credential cache (no database query once the client is known).
   */
  async authenticate(clientId: string, clientSecret: string): Promise<AuthenticatedClient | undefined> {
    const client = clientId.length <= 245 ? await this.cache.client(clientId) : null;
    const matches = safeEqual(this.digest(clientSecret), client?.secretDigest ?? this.dummyDigest);
    // A client set to private_key_jwt never authenticates with its secret.
    return client && matches && client.tokenEndpointAuthMethod !== 'private_key_jwt'
      ? toAuthenticated(client)
      : undefined;
  }
}
