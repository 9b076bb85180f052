import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, Repository } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation, returnedRows } from '@acme/platform-persistence';
import { managementTable } from '@acme/management-schema';
import { ClientGrant } from '../oauth.entities';

const CLIENT_GRANTS = managementTable('client_grants');

export type NewClientGrant = Omit<ClientGrant, 'createdAt'>;

/** `conflict`: the client already has a grant for the audience; `unknown_client`: no such client. */
export type ClientGrantInsertResult = 'created' | 'conflict' | 'unknown_client';

/** Client grants' rows: which scopes a client holds for an audience. */
@Injectable()
export class ClientGrantRepository {
  constructor(@InjectRepository(ClientGrant) private readonly grants: Repository<ClientGrant>) {}

  async insert(grant: NewClientGrant): Promise<ClientGrantInsertResult> {
    try {
      await this.grants.insert(grant);
      return 'created';
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      if (isForeignKeyViolation(error)) return 'unknown_client';
      throw error;
    }
  }

  /** Creates the client's grant for the audience, or replaces its scopes; safe when instances race. */
  async upsertScope(grant: NewClientGrant): Promise<void> {
    await this.grants.query(
      `INSERT INTO ${CLIENT_GRANTS} ("id", "client_id", "audience", "scope") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("client_id", "audience") DO UPDATE SET "scope" = EXCLUDED."scope"`,
      [grant.id, grant.clientId, grant.audience, grant.scope],
    );
  }

  findById(id: string): Promise<ClientGrant | null> {
    return this.grants.findOneBy({ id });
  }

  findByClientAndAudience(clientId: string, audience: string): Promise<ClientGrant | null> {
    return this.grants.findOneBy({ clientId, audience });
  }

  /** One page (0-based) in creation order among the grants matching the filter, and how many match. */
  async listPage(
    filter: { clientId?: string; audience?: string },
    page: number,
    perPage: number,
  ): Promise<{ grants: ClientGrant[]; total: number }> {
    const where: FindOptionsWhere<ClientGrant> = {};
    if (filter.clientId !== undefined) where.clientId = filter.clientId;
    if (filter.audience !== undefined) where.audience = filter.audience;
    const [grants, total] = await this.grants.findAndCount({
      where,
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page * perPage,
      take: perPage,
    });
    return { grants, total };
  }

  /** False when there is no such grant. */
  async updateScope(id: string, scope: string[]): Promise<boolean> {
    const result = await this.grants.update({ id }, { scope });
    return Boolean(result.affected);
  }

  /** The deleted grant's client id; undefined when there was no such grant. */
  async deleteById(id: string): Promise<string | undefined> {
    const deleted = returnedRows<{ client_id: string }>(
      await this.grants.query(`DELETE FROM ${CLIENT_GRANTS} WHERE "id" = $1 RETURNING "client_id"`, [id]),
    );
    return deleted[0]?.client_id;
  }
}
