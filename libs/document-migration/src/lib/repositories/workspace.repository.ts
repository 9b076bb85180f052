import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@acme/platform-persistence';
import { TABLES } from './migration-tables';

export interface NewWorkspace {
  id: string;
  name: string;
  apiKeyDigest: string;
  authTokenDigest: string;
}

export interface WorkspaceCredentials {
  id: string;
  authTokenDigest: string;
}

/** Workspaces (the tenants) and their hashed credentials. */
@Injectable()
export class WorkspaceRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(workspace: NewWorkspace): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO ${TABLES.workspaces} ("id", "name", "api_key_digest", "auth_token_digest") VALUES ($1, $2, $3, $4)`,
      [workspace.id, workspace.name, workspace.apiKeyDigest, workspace.authTokenDigest],
    );
  }

  /** The workspace an API key names (digests are unique), with the token digest to verify against. */
  async findCredentialsByApiKeyDigest(apiKeyDigest: string): Promise<WorkspaceCredentials | undefined> {
    const rows: { id: string; auth_token_digest: string }[] = await this.dataSource.query(
      `SELECT "id", "auth_token_digest" FROM ${TABLES.workspaces} WHERE "api_key_digest" = $1`,
      [apiKeyDigest],
    );
    const row = rows[0];
    return row && { id: row.id, authTokenDigest: row.auth_token_digest };
  }

  async exists(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) return false;
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ${TABLES.workspaces} WHERE "id" = $1`, [
      workspaceId,
    ]);
    return rows.length > 0;
  }
}
