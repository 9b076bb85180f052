import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rumTable } from '@acme/rum-schema';
import { Queryable } from './queryable';

const AUDIT_LOG = rumTable('audit_log');

/** An audit entry as stored (already redacted and bounded by the service). */
export interface AuditEntry {
  id: number;
  accountId: number;
  method: string;
  route: string;
  applicationId: string | null;
  status: number;
  result: string;
  requestId: string;
  request: unknown;
  createdAt: Date;
  /** The app key the call was made with (its id; the value is never stored). */
  appKeyId: number | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'createdAt'>;

interface AuditRow {
  id: string;
  account_id: string;
  method: string;
  route: string;
  application_id: string | null;
  status: number;
  result: string;
  request_id: string;
  request: unknown;
  created_at: Date;
  app_key_id: string | null;
}

/** rum.audit_log, read per account only. */
@Injectable()
export class AuditRepository {
  constructor(@Inject(DataSource) private readonly db: Queryable) {}

  async insert(entry: NewAuditEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO ${AUDIT_LOG} ("account_id", "method", "route", "application_id", "status", "result", "request_id", "request", "app_key_id")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
      [
        entry.accountId,
        entry.method,
        entry.route,
        entry.applicationId,
        entry.status,
        entry.result,
        entry.requestId,
        JSON.stringify(entry.request),
        entry.appKeyId,
      ],
    );
  }

  /** Newest first, ids below `before` when given. */
  async newestOfAccount(accountId: number, limit: number, before?: number): Promise<AuditEntry[]> {
    const rows: AuditRow[] = await this.db.query(
      `SELECT * FROM ${AUDIT_LOG} WHERE "account_id" = $1 AND ($2::bigint IS NULL OR "id" < $2) ORDER BY "id" DESC LIMIT $3`,
      [accountId, before ?? null, limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      accountId: Number(row.account_id),
      method: row.method,
      route: row.route,
      applicationId: row.application_id,
      status: row.status,
      result: row.result,
      requestId: row.request_id,
      request: row.request,
      createdAt: row.created_at,
      appKeyId: row.app_key_id === null ? null : Number(row.app_key_id),
    }));
  }
}
