import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const ACCOUNTS = rumTable('accounts');
const APP_KEYS = rumTable('app_keys');

export interface AuthenticatedAccount {
  id: number;
  name: string;
  appKeyId: number;
}

/** rum.accounts: an account is the tenant of app keys and the audit log. */
@Injectable()
export class AccountsRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  in(manager: Queryable): AccountsRepository {
    return new AccountsRepository(manager);
  }

  async insert(name: string): Promise<number> {
    const [row]: { id: string }[] = await this.db.query(`INSERT INTO ${ACCOUNTS} ("name") VALUES ($1) RETURNING "id"`, [
      name,
    ]);
    return Number(row.id);
  }

  async exists(accountId: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM ${ACCOUNTS} WHERE "id" = $1`, [accountId]);
    return rows.length > 0;
  }

  /** The account holding the app key of this digest, and the key's id. */
  async findByAppKeyDigest(digest: string): Promise<AuthenticatedAccount | undefined> {
    const [row]: { id: string; name: string; key_id: string }[] = await this.db.query(
      `SELECT a."id", a."name", k."id" AS "key_id" FROM ${APP_KEYS} k JOIN ${ACCOUNTS} a ON a."id" = k."account_id" WHERE k."key_digest" = $1`,
      [digest],
    );
    return row && { id: Number(row.id), name: row.name, appKeyId: Number(row.key_id) };
  }
}
