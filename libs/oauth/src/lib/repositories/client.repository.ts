import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '@acme/platform-persistence';
import { managementTable } from '@acme/management-schema';
import { Client } from '../oauth.entities';

const CLIENTS = managementTable('clients');

export type NewClient = Omit<Client, 'createdAt'>;
export type ClientChanges = Partial<Omit<Client, 'clientId' | 'createdAt'>>;

/** The client registry's rows. */
@Injectable()
export class ClientRepository {
  constructor(@InjectRepository(Client) private readonly clients: Repository<Client>) {}

  /** False when the client id is taken. */
  async insert(client: NewClient): Promise<boolean> {
    try {
      await this.clients.insert(client);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Creates a first-party client-credentials client, or re-keys the existing one; safe when instances race. */
  async upsertWithSecretDigest(clientId: string, name: string, secretDigest: string): Promise<void> {
    await this.clients.query(
      `INSERT INTO ${CLIENTS} ("client_id", "name", "secret_digest", "is_first_party", "grant_types")
       VALUES ($1, $2, $3, true, ARRAY['client_credentials'])
       ON CONFLICT ("client_id") DO UPDATE SET "secret_digest" = EXCLUDED."secret_digest", "grant_types" = EXCLUDED."grant_types"`,
      [clientId, name, secretDigest],
    );
  }

  findById(clientId: string): Promise<Client | null> {
    return this.clients.findOneBy({ clientId });
  }

  existsById(clientId: string): Promise<boolean> {
    return this.clients.existsBy({ clientId });
  }

  /** One page (0-based) in creation order, and how many clients there are. */
  async listPage(page: number, perPage: number): Promise<{ clients: Client[]; total: number }> {
    const [clients, total] = await this.clients.findAndCount({
      order: { createdAt: 'ASC', clientId: 'ASC' },
      skip: page * perPage,
      take: perPage,
    });
    return { clients, total };
  }

  /** False when there is no such client. */
  async update(clientId: string, changes: ClientChanges): Promise<boolean> {
    const result = await this.clients.update({ clientId }, changes);
    return Boolean(result.affected);
  }

  /** False when there is no such client; its grants and credentials go with it (ON DELETE CASCADE). */
  async deleteById(clientId: string): Promise<boolean> {
    const result = await this.clients.delete({ clientId });
    return Boolean(result.affected);
  }
}
