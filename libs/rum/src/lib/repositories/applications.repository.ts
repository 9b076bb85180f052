import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const APPLICATIONS = rumTable('applications');
const ACCESS = rumTable('application_access');
const CLIENT_TOKENS = rumTable('client_tokens');

export type Access = 'read' | 'write';

export interface ApplicationGrant {
  ownerAccountId: number;
  /** What was granted to the asking account, if anything. */
  granted?: Access;
}

/** rum.applications with their access grants, client tokens and current rule-set version. */
@Injectable()
export class ApplicationsRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  in(manager: Queryable): ApplicationsRepository {
    return new ApplicationsRepository(manager);
  }

  async insert(id: string, name: string, ownerAccountId: number): Promise<void> {
    await this.db.query(`INSERT INTO ${APPLICATIONS} ("id", "name", "owner_account_id") VALUES ($1, $2, $3)`, [
      id,
      name,
      ownerAccountId,
    ]);
  }

  async exists(applicationId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM ${APPLICATIONS} WHERE "id" = $1`, [applicationId]);
    return rows.length > 0;
  }

  async upsertAccess(applicationId: string, accountId: number, access: Access): Promise<void> {
    await this.db.query(
      `INSERT INTO ${ACCESS} ("application_id", "account_id", "access") VALUES ($1, $2, $3)
       ON CONFLICT ("application_id", "account_id") DO UPDATE SET "access" = EXCLUDED."access"`,
      [applicationId, accountId, access],
    );
  }

  /** The application's owner and the grant of `accountId` on it; undefined for an unknown application. */
  async grantOf(applicationId: string, accountId: number): Promise<ApplicationGrant | undefined> {
    const [row]: { owner_account_id: string; access: Access | null }[] = await this.db.query(
      `SELECT a."owner_account_id", g."access" FROM ${APPLICATIONS} a
       LEFT JOIN ${ACCESS} g ON g."application_id" = a."id" AND g."account_id" = $2
       WHERE a."id" = $1`,
      [applicationId, accountId],
    );
    return row && { ownerAccountId: Number(row.owner_account_id), granted: row.access ?? undefined };
  }

  async insertClientToken(applicationId: string, digest: string): Promise<void> {
    await this.db.query(`INSERT INTO ${CLIENT_TOKENS} ("application_id", "token_digest") VALUES ($1, $2)`, [
      applicationId,
      digest,
    ]);
  }

  /** The application a client token of this digest feeds, with its current rule-set version. */
  async findByClientTokenDigest(
    digest: string,
  ): Promise<{ applicationId: string; ruleSetVersion: number } | undefined> {
    const [row]: { id: string; rule_set_version: number }[] = await this.db.query(
      `SELECT a."id", a."rule_set_version" FROM ${CLIENT_TOKENS} t JOIN ${APPLICATIONS} a ON a."id" = t."application_id" WHERE t."token_digest" = $1`,
      [digest],
    );
    return row && { applicationId: row.id, ruleSetVersion: row.rule_set_version };
  }

  /** Locks the application row for the transaction (serialises its rule-set changes); undefined when unknown. */
  async lockRuleSetVersion(applicationId: string): Promise<number | undefined> {
    const [row]: { rule_set_version: number }[] = await this.db.query(
      `SELECT "rule_set_version" FROM ${APPLICATIONS} WHERE "id" = $1 FOR UPDATE`,
      [applicationId],
    );
    return row?.rule_set_version;
  }

  async setRuleSetVersion(applicationId: string, version: number): Promise<void> {
    await this.db.query(`UPDATE ${APPLICATIONS} SET "rule_set_version" = $2 WHERE "id" = $1`, [applicationId, version]);
  }
}
