import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { digestSecret, generateSecret, verifySecret } from '@acme/platform-auth';
import { ReadReplicas } from '@acme/platform-persistence';
import { migrationErrors } from './migrations.errors';
import { firstRow, hasPgCode, isUuid, pgError, PG_UNIQUE_VIOLATION } from './pg-errors';

export interface CreatedWorkspace {
  workspaceId: string;
  apiKey: string;
  authToken: string;
}

export interface ImportedRecord {
  id: string;
  kind: string;
  body: Record<string, unknown>;
}

export interface ImportedDocument {
  id: string;
  title: string;
  content?: string;
  records?: ImportedRecord[];
}

export interface OrganizationStats {
  documents: number;
  records: number;
}

/** Tenancy and data: workspaces with their hashed credentials, organizations, bulk import and counts. */
@Injectable()
export class WorkspaceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly replicas: ReadReplicas,
  ) {}

  async createWorkspace(name: string): Promise<CreatedWorkspace> {
    const workspaceId = randomUUID();
    const apiKey = generateSecret('wk_', 18);
    const authToken = generateSecret('wat_', 32);
    await this.dataSource.query(
      `INSERT INTO "migration"."workspaces" ("id", "name", "api_key_digest", "auth_token_digest") VALUES ($1, $2, $3, $4)`,
      [workspaceId, name, digestSecret(apiKey), digestSecret(authToken)],
    );
    return { workspaceId, apiKey, authToken };
  }

  /** The workspace both headers identify, or UNAUTHENTICATED; the token is compared in constant time. */
  async authenticate(apiKey: string | undefined, authToken: string | undefined): Promise<string> {
    if (!apiKey || !authToken) throw migrationErrors.unauthenticated();
    const rows: { id: string; auth_token_digest: string }[] = await this.dataSource.query(
      `SELECT "id", "auth_token_digest" FROM "migration"."workspaces" WHERE "api_key_digest" = $1`,
      [digestSecret(apiKey)],
    );
    const workspace = rows[0];
    if (!workspace || !verifySecret(authToken, workspace.auth_token_digest)) throw migrationErrors.unauthenticated();
    return workspace.id;
  }

  async createOrganization(workspaceId: string, organizationId: string): Promise<void> {
    await this.requireWorkspace(workspaceId);
    try {
      await this.dataSource.query(`INSERT INTO "migration"."organizations" ("workspace_id", "id") VALUES ($1, $2)`, [workspaceId, organizationId]);
    } catch (error) {
      if (hasPgCode(error, PG_UNIQUE_VIOLATION)) throw migrationErrors.organizationExists(organizationId);
      throw error;
    }
  }

  /** Internal key of a workspace's organization; another workspace's organization is simply not found. */
  async organizationKey(workspaceId: string, organizationId: string): Promise<string> {
    if (!isUuid(workspaceId)) throw migrationErrors.organizationNotFound(organizationId);
    const rows: { key: string }[] = await this.dataSource.query(
      `SELECT "key" FROM "migration"."organizations" WHERE "workspace_id" = $1 AND "id" = $2`,
      [workspaceId, organizationId],
    );
    if (!rows[0]) throw migrationErrors.organizationNotFound(organizationId);
    return rows[0].key;
  }

  /** Inserts documents and their records in one statement, so a call imports everything or nothing. */
  async importDocuments(workspaceId: string, organizationId: string, documents: ImportedDocument[]): Promise<OrganizationStats> {
    await this.requireWorkspace(workspaceId);
    const organizationKey = await this.organizationKey(workspaceId, organizationId);
    const payload = JSON.stringify(documents.map((d) => ({ id: d.id, title: d.title, content: d.content ?? '', records: d.records ?? [] })));
    try {
      return await this.dataSource.transaction(async (manager) => {
        // Serialises with a whole-organization migration start, which fixes its document set by key.
        await manager.query(`SELECT 1 FROM "migration"."organizations" WHERE "key" = $1 FOR SHARE`, [organizationKey]);
        const rows: { documents: number; records: number }[] = await manager.query(
          `WITH input AS (
             SELECT * FROM jsonb_to_recordset($2::jsonb) AS x("id" text, "title" text, "content" text, "records" jsonb)
           ), docs AS (
             INSERT INTO "migration"."documents" ("organization_key", "id", "title", "content")
             SELECT $1, "id", "title", "content" FROM input RETURNING "key", "id"
           ), recs AS (
             INSERT INTO "migration"."records" ("document_key", "id", "kind", "body")
             SELECT docs."key", r."id", r."kind", r."body"
             FROM input JOIN docs ON docs."id" = input."id"
             CROSS JOIN LATERAL jsonb_to_recordset(input."records") AS r("id" text, "kind" text, "body" jsonb)
             RETURNING 1
           )
           SELECT (SELECT count(*) FROM docs)::int AS "documents", (SELECT count(*) FROM recs)::int AS "records"`,
          [organizationKey, payload],
        );
        return firstRow(rows);
      });
    } catch (error) {
      if (hasPgCode(error, PG_UNIQUE_VIOLATION)) throw migrationErrors.documentExists(describeDuplicate(pgError(error)?.detail));
      throw error;
    }
  }

  async stats(workspaceId: string, organizationId: string): Promise<OrganizationStats> {
    await this.requireWorkspace(workspaceId);
    const organizationKey = await this.organizationKey(workspaceId, organizationId);
    // Counts tolerate replication lag: a read replica answers when there is one.
    const rows: OrganizationStats[] = await this.replicas.read((db) => db.query(
      `SELECT (SELECT count(*) FROM "migration"."documents" WHERE "organization_key" = $1)::int AS "documents",
              (SELECT count(*) FROM "migration"."records" r JOIN "migration"."documents" d ON d."key" = r."document_key"
                WHERE d."organization_key" = $1)::int AS "records"`,
      [organizationKey],
    ));
    return firstRow(rows);
  }

  private async requireWorkspace(workspaceId: string): Promise<void> {
    if (!isUuid(workspaceId)) throw migrationErrors.workspaceNotFound();
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM "migration"."workspaces" WHERE "id" = $1`, [workspaceId]);
    if (rows.length === 0) throw migrationErrors.workspaceNotFound();
  }
}

/** "Key (organization_key, id)=(3, doc-1) already exists." -> "id doc-1"; internal keys stay inside. */
export function describeDuplicate(detail: string | undefined): string {
  const match = /=\(\d+, (.*)\) already exists/.exec(detail ?? '');
  return match ? `id '${match[1]}'` : 'duplicate id';
}
