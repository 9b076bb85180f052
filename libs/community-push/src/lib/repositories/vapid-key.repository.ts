import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { communityTable } from '@acme/community-schema';

const TABLE = communityTable('push_vapid_keys');

/** The stored pair; `privateKey` as stored (sealed by the caller, or in clear when written before sealing). */
export interface StoredVapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The deployment's single VAPID key pair (one row, id 1; not per project). */
@Injectable()
export class VapidKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores the pair unless one is stored already (first writer wins), then returns the stored pair. */
  async storeOnce(keys: StoredVapidKeys): Promise<StoredVapidKeys> {
    await this.dataSource.query(
      `INSERT INTO ${TABLE} (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`,
      [keys.publicKey, keys.privateKey],
    );
    return (await this.find()) as StoredVapidKeys;
  }

  async find(): Promise<StoredVapidKeys | undefined> {
    const rows = (await this.dataSource.query(`SELECT public_key, private_key FROM ${TABLE} WHERE id = 1`)) as {
      public_key: string;
      private_key: string;
    }[];
    return rows[0] && { publicKey: rows[0].public_key, privateKey: rows[0].private_key };
  }

  /** Replaces a private key stored in clear by its sealed form, unless the row changed since it was read. */
  async sealInPlace(clear: string, sealed: string): Promise<void> {
    await this.dataSource.query(`UPDATE ${TABLE} SET private_key = $1 WHERE id = 1 AND private_key = $2`, [
      sealed,
      clear,
    ]);
  }
}
