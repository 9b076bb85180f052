import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CredentialCache } from './credential-cache';
import { OAuthErrors } from './oauth.errors';
import { ClientGrant } from './oauth.entities';
import { ClientGrantRepository } from './repositories/client-grant.repository';

export interface CreateClientGrantCommand {
  clientId: string;
  audience: string;
  scope: string[];
}

export const newClientGrantId = (): string => `cgr_${randomBytes(12).toString('base64url')}`;

/** Which scopes a client may request for an audience (Auth0's client grants). */
@Injectable()
export class ClientGrantService {
  constructor(
    private readonly grants: ClientGrantRepository,
    private readonly cache: CredentialCache,
  ) {}

  async create(command: CreateClientGrantCommand): Promise<ClientGrant> {
    const id = newClientGrantId();
    const result = await this.grants.insert({
      id,
      clientId: command.clientId,
      audience: command.audience,
      scope: [...new Set(command.scope)],
    });
    if (result === 'conflict') throw OAuthErrors.clientGrantConflict();
    if (result === 'unknown_client') throw OAuthErrors.clientNotFound(command.clientId);
    await this.cache.changed(command.clientId);
    return this.get(id);
  }

  /** Grants the bootstrap client every scope it should hold; idempotent and safe when instances race. */
  async upsert(command: CreateClientGrantCommand): Promise<void> {
    await this.grants.upsertScope({
      id: newClientGrantId(),
      clientId: command.clientId,
      audience: command.audience,
      scope: command.scope,
    });
    await this.cache.changed(command.clientId);
  }

  async get(id: string): Promise<ClientGrant> {
    const grant = await this.grants.findById(id);
    if (!grant) throw OAuthErrors.clientGrantNotFound(id);
    return grant;
  }

  /** The grant's scopes, from the instance's credential cache (no database query once known). */
  async find(clientId: string, audience: string): Promise<{ scope: readonly string[] } | undefined> {
    const scope = await this.cache.grantedScopes(clientId, audience);
    return scope ? { scope } : undefined;
  }

  async list(
    filter: { clientId?: string; audience?: string },
    page: number,
    perPage: number,
  ): Promise<{ grants: ClientGrant[]; total: number }> {
    return this.grants.listPage(filter, page, perPage);
  }

  /** Replaces the grant's scopes; every instance forgets the client's cached grants at once. */
  async updateScope(id: string, scope: string[]): Promise<ClientGrant> {
    const grant = await this.get(id);
    await this.grants.updateScope(id, [...new Set(scope)]);
    await this.cache.changed(grant.clientId);
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const clientId = await this.grants.deleteById(id);
    if (clientId === undefined) throw OAuthErrors.clientGrantNotFound(id);
    await this.cache.changed(clientId);
  }
}
