import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '@acme/platform-persistence';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const APP_KEYS = rumTable('app_keys');

export interface StoredAppKey {
  id: number;
  /** The key's last characters (null for keys issued before hints were kept). */
  hint: string | null;
  createdAt: Date;
}

/** rum.app_keys, always scoped to the owning account. */
@Injectable()
export class AppKeysRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  in(manager: Queryable): AppKeysRepository {
    return new AppKeysRepository(manager);
  }

  async insert(accountId: number, digest: string, hint: string): Promise<number> {
    const [row]: { id: string }[] = await this.db.query(
      `INSERT INTO ${APP_KEYS} ("account_id", "key_digest", "key_hint") VALUES ($1, $2, $3) RETURNING "id"`,
      [accountId, digest, hint],
    );
    return Number(row.id);
  }

  async listOfAccount(accountId: number): Promise<StoredAppKey[]> {
    const rows: { id: string; key_hint: string | null; created_at: Date }[] = await this.db.query(
      `SELECT "id", "key_hint", "created_at" FROM ${APP_KEYS} WHERE "account_id" = $1 ORDER BY "id"`,
      [accountId],
    );
    return rows.map((row) => ({ id: Number(row.id), hint: row.key_hint, createdAt: row.created_at }));
  }

  /** False when the account has no key of that id (another account's key is never deleted). */
  async deleteOfAccount(accountId: number, appKeyId: number): Promise<boolean> {
    const deleted: unknown = await this.db.query(
      `DELETE FROM ${APP_KEYS} WHERE "account_id" = $1 AND "id" = $2 RETURNING "id"`,
      [accountId, appKeyId],
    );
    return returnedRows(deleted).length > 0;
  }
}
