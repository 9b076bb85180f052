import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { FindOptionsWhere, Repository } from 'typeorm';
import { isUniqueViolation, returnedRows } from '@acme/platform-persistence';
import { CredentialCache } from './credential-cache';
import { OAuthError } from './oauth.errors';
import { ClientGrant } from './oauth.entities';

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
    @InjectRepository(ClientGrant) private readonly grants: Repository<ClientGrant>,
    private readonly cache: CredentialCache,
  ) {}

  async create(command: CreateClientGrantCommand): Promise<ClientGrant> {
    const id = newClientGrantId();
    try {
      await this.grants.insert({ id, clientId: command.clientId, audience: command.audience, scope: [...new Set(command.scope)] });
    } catch (error) {
      if (isUniqueViolation(error)) throw OAuthError.clientGrantConflict();
      // 23503: the client does not exist.
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23503') throw OAuthError.clientNotFound(command.clientId);
      throw error;
    }
    await this.cache.changed(command.clientId);
    return this.get(id);
  }

  /** Grants the bootstrap client every scope it should hold; idempotent and safe when instances race. */
  async upsert(command: CreateClientGrantCommand): Promise<void> {
    await this.grants.query(
      `INSERT INTO "management"."client_grants" ("id", "client_id", "audience", "scope") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("client_id", "audience") DO UPDATE SET "scope" = EXCLUDED."scope"`,
      [newClientGrantId(), command.clientId, command.audience, command.scope],
    );
    await this.cache.changed(command.clientId);
  }

  async get(id: string): Promise<ClientGrant> {
    const grant = await this.grants.findOneBy({ id });
    if (!grant) throw OAuthError.clientGrantNotFound(id);
    return grant;
  }

  /** The grant's scopes, from the instance's credential cache (no database query once known). */
  async find(clientId: string, audience: string): Promise<{ scope: readonly string[] } | undefined> {
    const scope = await this.cache.grantedScopes(clientId, audience);
    return scope ? { scope } : undefined;
  }

  async list(filter: { clientId?: string; audience?: string }, page: number, perPage: number): Promise<{ grants: ClientGrant[]; total: number }> {
    const where: FindOptionsWhere<ClientGrant> = {};
    if (filter.clientId !== undefined) where.clientId = filter.clientId;
    if (filter.audience !== undefined) where.audience = filter.audience;
    const [grants, total] = await this.grants.findAndCount({ where, order: { createdAt: 'ASC', id: 'ASC' }, skip: page * perPage, take: perPage });
    return { grants, total };
  }

  /** Replaces the grant's scopes; every instance forgets the client's cached grants at once. */
  async updateScope(id: string, scope: string[]): Promise<ClientGrant> {
    const grant = await this.get(id);
    await this.grants.update({ id }, { scope: [...new Set(scope)] });
    await this.cache.changed(grant.clientId);
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const deleted = returnedRows<{ client_id: string }>(await this.grants.query(`DELETE FROM "management"."client_grants" WHERE "id" = $1 RETURNING "client_id"`, [id]));
    if (deleted.length === 0) throw OAuthError.clientGrantNotFound(id);
    await this.cache.changed(deleted[0].client_id);
  }
}
