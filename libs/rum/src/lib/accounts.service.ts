import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { digestSecret, generateSecret } from '@acme/platform-auth';
import { AppKeysService } from './app-keys.service';
import { RulesErrors } from './rules.errors';

export type Access = 'read' | 'write';

export interface Account {
  id: number;
  name: string;
  /** The app key the call was made with (audit entries name it, never its value). */
  appKeyId?: number;
}

export interface ClientTokenTarget {
  applicationId: string;
  ruleSetVersion: number;
}

const CLIENT_TOKEN_PREFIX = 'rum_ct_';

/** Accounts, their app keys, applications, per-application access and ingest client tokens. Secrets are stored as SHA-256 digests. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly db: DataSource,
    private readonly appKeys: AppKeysService,
  ) {}

  async createAccount(name: string): Promise<{ account_id: number; app_key: string; app_key_id: number }> {
    return this.db.transaction(async (manager) => {
      const [account]: { id: string }[] = await manager.query(`INSERT INTO "rum"."accounts" ("name") VALUES ($1) RETURNING "id"`, [name]);
      const key = await this.appKeys.issue(Number(account.id), manager);
      return { account_id: Number(account.id), app_key: key.app_key, app_key_id: key.app_key_id };
    });
  }

  /** The account an app key belongs to; lookup by digest, so the presented key is never compared as text. */
  async authenticate(appKey: string | undefined): Promise<Account> {
    if (!appKey || appKey.length > 256) throw RulesErrors.unknownAppKey();
    const [row]: { id: string; name: string; key_id: string }[] = await this.db.query(
      `SELECT a."id", a."name", k."id" AS "key_id" FROM "rum"."app_keys" k JOIN "rum"."accounts" a ON a."id" = k."account_id" WHERE k."key_digest" = $1`,
      [digestSecret(appKey)],
    );
    if (!row) throw RulesErrors.unknownAppKey();
    return { id: Number(row.id), name: row.name, appKeyId: Number(row.key_id) };
  }

  async accountExists(accountId: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM "rum"."accounts" WHERE "id" = $1`, [accountId]);
    return rows.length > 0;
  }

  async createApplication(name: string, ownerAccountId: number): Promise<{ application_id: string }> {
    if (!(await this.accountExists(ownerAccountId))) throw RulesErrors.accountNotFound();
    const id = randomBytes(12).toString('hex');
    await this.db.query(`INSERT INTO "rum"."applications" ("id", "name", "owner_account_id") VALUES ($1, $2, $3)`, [id, name, ownerAccountId]);
    return { application_id: id };
  }

  async setAccess(applicationId: string, accountId: number, access: Access): Promise<void> {
    await this.requireApplication(applicationId);
    if (!(await this.accountExists(accountId))) throw RulesErrors.accountNotFound();
    await this.db.query(
      `INSERT INTO "rum"."application_access" ("application_id", "account_id", "access") VALUES ($1, $2, $3)
       ON CONFLICT ("application_id", "account_id") DO UPDATE SET "access" = EXCLUDED."access"`,
      [applicationId, accountId, access],
    );
  }

  /** The owner may write; others have what was granted; an unknown application grants nothing. */
  async accessOf(applicationId: string, accountId: number): Promise<Access | undefined> {
    const [row]: { owner_account_id: string; access: Access | null }[] = await this.db.query(
      `SELECT a."owner_account_id", g."access" FROM "rum"."applications" a
       LEFT JOIN "rum"."application_access" g ON g."application_id" = a."id" AND g."account_id" = $2
       WHERE a."id" = $1`,
      [applicationId, accountId],
    );
    if (!row) return undefined;
    return Number(row.owner_account_id) === accountId ? 'write' : (row.access ?? undefined);
  }

  async requireAccess(applicationId: string, accountId: number, needed: Access): Promise<void> {
    const granted = await this.accessOf(applicationId, accountId);
    if (granted === undefined || (needed === 'write' && granted !== 'write')) throw RulesErrors.noAccess();
  }

  async createClientToken(applicationId: string): Promise<{ client_token: string }> {
    await this.requireApplication(applicationId);
    const token = generateSecret(CLIENT_TOKEN_PREFIX);
    await this.db.query(`INSERT INTO "rum"."client_tokens" ("application_id", "token_digest") VALUES ($1, $2)`, [applicationId, digestSecret(token)]);
    return { client_token: token };
  }

  /** The application a client token feeds, with its current rule-set version (the ingest path's version check). */
  async resolveClientToken(token: string | undefined): Promise<ClientTokenTarget> {
    if (!token || token.length > 256) throw RulesErrors.unknownClientToken();
    const [row]: { id: string; rule_set_version: number }[] = await this.db.query(
      `SELECT a."id", a."rule_set_version" FROM "rum"."client_tokens" t JOIN "rum"."applications" a ON a."id" = t."application_id" WHERE t."token_digest" = $1`,
      [digestSecret(token)],
    );
    if (!row) throw RulesErrors.unknownClientToken();
    return { applicationId: row.id, ruleSetVersion: row.rule_set_version };
  }

  private async requireApplication(applicationId: string): Promise<void> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM "rum"."applications" WHERE "id" = $1`, [applicationId]);
    if (rows.length === 0) throw RulesErrors.applicationNotFound();
  }
}
