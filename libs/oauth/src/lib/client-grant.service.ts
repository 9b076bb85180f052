import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { FindOptionsWhere, Repository } from 'typeorm';
import { isUniqueViolation } from '@acme/platform-persistence';
import { ClientGrantConflictError, ClientGrantNotFoundError, ClientNotFoundError } from './oauth.errors';
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
  constructor(@InjectRepository(ClientGrant) private readonly grants: Repository<ClientGrant>) {}

  async create(command: CreateClientGrantCommand): Promise<ClientGrant> {
    const id = newClientGrantId();
    try {
      await this.grants.insert({ id, clientId: command.clientId, audience: command.audience, scope: [...new Set(command.scope)] });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ClientGrantConflictError();
      // 23503: the client does not exist.
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23503') throw new ClientNotFoundError(command.clientId);
      throw error;
    }
    return this.get(id);
  }

  /** Grants the bootstrap client every scope it should hold; idempotent and safe when instances race. */
  async upsert(command: CreateClientGrantCommand): Promise<void> {
    await this.grants.query(
      `INSERT INTO "management"."client_grants" ("id", "client_id", "audience", "scope") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("client_id", "audience") DO UPDATE SET "scope" = EXCLUDED."scope"`,
      [newClientGrantId(), command.clientId, command.audience, command.scope],
    );
  }

  async get(id: string): Promise<ClientGrant> {
    const grant = await this.grants.findOneBy({ id });
    if (!grant) throw new ClientGrantNotFoundError(id);
    return grant;
  }

  async find(clientId: string, audience: string): Promise<ClientGrant | undefined> {
    return (await this.grants.findOneBy({ clientId, audience })) ?? undefined;
  }

  async list(filter: { clientId?: string; audience?: string }, page: number, perPage: number): Promise<{ grants: ClientGrant[]; total: number }> {
    const where: FindOptionsWhere<ClientGrant> = {};
    if (filter.clientId !== undefined) where.clientId = filter.clientId;
    if (filter.audience !== undefined) where.audience = filter.audience;
    const [grants, total] = await this.grants.findAndCount({ where, order: { createdAt: 'ASC', id: 'ASC' }, skip: page * perPage, take: perPage });
    return { grants, total };
  }

  async delete(id: string): Promise<void> {
    const result = await this.grants.delete({ id });
    if (!result.affected) throw new ClientGrantNotFoundError(id);
  }
}
