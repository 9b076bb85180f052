import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '@acme/platform-persistence';
import { managementTable } from '@acme/management-schema';

const CLIENT_CREDENTIALS = managementTable('client_credentials');

/** A public key a client authenticates with (private_key_jwt). */
export interface ClientCredentialRow {
  id: string;
  name: string | null;
  kid: string;
  alg: string;
  public_key_pem: string;
  created_at: Date;
}

export type NewClientCredential = Omit<ClientCredentialRow, 'created_at'> & { clientId: string };

/** Client credentials' rows; the client must exist (foreign key). */
@Injectable()
export class ClientCredentialRepository {
  constructor(private readonly db: DataSource) {}

  async insert(credential: NewClientCredential): Promise<ClientCredentialRow> {
    const [row]: ClientCredentialRow[] = await this.db.query(
      `INSERT INTO ${CLIENT_CREDENTIALS} ("id", "client_id", "name", "alg", "kid", "public_key_pem") VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [credential.id, credential.clientId, credential.name, credential.alg, credential.kid, credential.public_key_pem],
    );
    return row;
  }

  /** The client's credentials, oldest first. */
  listByClient(clientId: string): Promise<ClientCredentialRow[]> {
    return this.db.query(`SELECT * FROM ${CLIENT_CREDENTIALS} WHERE "client_id" = $1 ORDER BY "created_at"`, [
      clientId,
    ]);
  }

  /** False when the client has no credential with this id. */
  async deleteForClient(clientId: string, id: string): Promise<boolean> {
    const deleted: unknown = await this.db.query(
      `DELETE FROM ${CLIENT_CREDENTIALS} WHERE "client_id" = $1 AND "id" = $2 RETURNING "id"`,
      [clientId, id],
    );
    return returnedRows(deleted).length > 0;
  }
}
