import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { digestSecret, generateSecret } from '@acme/platform-auth';
import { returnedRows } from '@acme/platform-persistence';
import { RulesErrors } from './rules.errors';

export const APP_KEY_PREFIX = 'rum_ak_';
const HINT_LENGTH = 4;

export interface AppKeyView {
  app_key_id: number;
  /** The prefix and the last characters only: enough to tell keys apart, useless to an attacker. */
  masked_app_key: string;
  created_at: number;
}

const masked = (hint: string | null) => `${APP_KEY_PREFIX}…${hint ?? '????'}`;

/**
 * An account's app keys (Flashduty lets an account hold several): issued once in clear, stored as a digest
 * with the last four characters for the masked listing, revoked by deletion. Authentication reads the table on
 * every call, so a revoked key stops working on every instance at once.
 */
@Injectable()
export class AppKeysService {
  constructor(private readonly db: DataSource) {}

  /** Inside a transaction when given one (account creation issues the first key). */
  async issue(accountId: number, runner: Pick<DataSource, 'query'> = this.db): Promise<{ app_key_id: number; app_key: string }> {
    const appKey = generateSecret(APP_KEY_PREFIX);
    const [row]: { id: string }[] = await runner.query(
      `INSERT INTO "rum"."app_keys" ("account_id", "key_digest", "key_hint") VALUES ($1, $2, $3) RETURNING "id"`,
      [accountId, digestSecret(appKey), appKey.slice(-HINT_LENGTH)],
    );
    return { app_key_id: Number(row.id), app_key: appKey };
  }

  async list(accountId: number): Promise<AppKeyView[]> {
    const rows: { id: string; key_hint: string | null; created_at: Date }[] = await this.db.query(
      `SELECT "id", "key_hint", "created_at" FROM "rum"."app_keys" WHERE "account_id" = $1 ORDER BY "id"`,
      [accountId],
    );
    return rows.map((row) => ({ app_key_id: Number(row.id), masked_app_key: masked(row.key_hint), created_at: Math.floor(row.created_at.getTime() / 1000) }));
  }

  async revoke(accountId: number, appKeyId: number): Promise<void> {
    const deleted: unknown = await this.db.query(`DELETE FROM "rum"."app_keys" WHERE "account_id" = $1 AND "id" = $2 RETURNING "id"`, [accountId, appKeyId]);
    if (returnedRows(deleted).length === 0) throw RulesErrors.appKeyNotFound();
  }
}
