import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { redactForAudit } from './audit-redaction';

export interface AuditRecord {
  accountId: number;
  appKeyId?: number;
  method: string;
  route: string;
  applicationId?: string;
  status: number;
  result: string;
  requestId: string;
  request: { query?: unknown; body?: unknown };
}

export interface AuditEntryView {
  id: number;
  account_id: number;
  method: string;
  route: string;
  application_id: string | null;
  status: number;
  result: string;
  request_id: string;
  request: unknown;
  created_at: number;
  /** The app key the call was made with (its id; the value is never stored). */
  app_key_id: number | null;
}

/** As Postgres returns it: bigints as strings, the timestamp as a Date. */
type AuditRow = Omit<AuditEntryView, 'id' | 'account_id' | 'created_at' | 'app_key_id'> & { id: string; account_id: string; created_at: Date; app_key_id: string | null };

/** The per-account audit log: who called what, on which application, with what result; secrets never stored. */
@Injectable()
export class AuditService {
  constructor(private readonly db: DataSource) {}

  async record(entry: AuditRecord): Promise<void> {
    const applicationId = entry.applicationId === undefined ? null : String(redactForAudit(entry.applicationId)).slice(0, 128);
    await this.db.query(
      `INSERT INTO "rum"."audit_log" ("account_id", "method", "route", "application_id", "status", "result", "request_id", "request", "app_key_id")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
      [entry.accountId, entry.method.slice(0, 8), entry.route.slice(0, 256), applicationId, entry.status, entry.result, entry.requestId, JSON.stringify(redactForAudit(entry.request)), entry.appKeyId ?? null],
    );
  }

  /** Newest first; `before` is the id of the last entry of the previous page. */
  async list(accountId: number, options: { limit: number; before?: number }): Promise<{ items: AuditEntryView[]; next_before: number | null }> {
    const rows: AuditRow[] = await this.db.query(
      `SELECT * FROM "rum"."audit_log" WHERE "account_id" = $1 AND ($2::bigint IS NULL OR "id" < $2) ORDER BY "id" DESC LIMIT $3`,
      [accountId, options.before ?? null, options.limit + 1],
    );
    const page = rows.slice(0, options.limit).map((row) => ({
      id: Number(row.id),
      account_id: Number(row.account_id),
      method: row.method,
      route: row.route,
      application_id: row.application_id,
      status: row.status,
      result: row.result,
      request_id: row.request_id,
      request: row.request,
      created_at: Math.floor(row.created_at.getTime() / 1000),
      app_key_id: row.app_key_id === null ? null : Number(row.app_key_id),
    }));
    return { items: page, next_before: rows.length > options.limit ? page[page.length - 1].id : null };
  }
}
