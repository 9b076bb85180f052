import { Injectable } from '@nestjs/common';
import { redactForAudit } from './audit-redaction';
import { AuditEntry, AuditRepository } from './repositories/audit.repository';

export type { AuditEntry };

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

export interface AuditPage {
  items: AuditEntry[];
  /** Pass as `before` for the next page; null on the last one. */
  nextBefore: number | null;
}

/** The per-account audit log: who called what, on which application, with what result; secrets never stored. */
@Injectable()
export class AuditService {
  constructor(private readonly entries: AuditRepository) {}

  async record(entry: AuditRecord): Promise<void> {
    await this.entries.insert({
      accountId: entry.accountId,
      appKeyId: entry.appKeyId ?? null,
      method: entry.method.slice(0, 8),
      route: entry.route.slice(0, 256),
      applicationId:
        entry.applicationId === undefined ? null : String(redactForAudit(entry.applicationId)).slice(0, 128),
      status: entry.status,
      result: entry.result,
      requestId: entry.requestId,
      request: redactForAudit(entry.request),
    });
  }

  /** Newest first; `before` is the id of the last entry of the previous page. */
  async list(accountId: number, options: { limit: number; before?: number }): Promise<AuditPage> {
    const rows = await this.entries.newestOfAccount(accountId, options.limit + 1, options.before);
    const items = rows.slice(0, options.limit);
    return { items, nextBefore: rows.length > options.limit ? items[items.length - 1].id : null };
  }
}
