import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@acme/platform-persistence';
import { Queryable, TABLES } from './migration-tables';

/**
 * Organizations of a workspace. Their internal `key` is what documents and migrations point at; it is only ever
 * obtained through `findKey`, which is scoped to the workspace, so every key-based query stays inside one tenant.
 */
@Injectable()
export class OrganizationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Throws the driver's unique violation when the workspace already has this organization id. */
  async insert(workspaceId: string, organizationId: string): Promise<void> {
    await this.dataSource.query(`INSERT INTO ${TABLES.organizations} ("workspace_id", "id") VALUES ($1, $2)`, [
      workspaceId,
      organizationId,
    ]);
  }

  /** Internal key of a workspace's organization; another workspace's organization is simply absent. */
  async findKey(workspaceId: string, organizationId: string): Promise<string | undefined> {
    if (!isUuid(workspaceId)) return undefined;
    const rows: { key: string }[] = await this.dataSource.query(
      `SELECT "key" FROM ${TABLES.organizations} WHERE "workspace_id" = $1 AND "id" = $2`,
      [workspaceId, organizationId],
    );
    return rows[0]?.key;
  }

  /** Taken by an import: waits for a whole-organization start, which fixes its document set by key. */
  async lockForImport(manager: Queryable, organizationKey: string): Promise<void> {
    await manager.query(`SELECT 1 FROM ${TABLES.organizations} WHERE "key" = $1 FOR SHARE`, [organizationKey]);
  }

  /** Taken by a whole-organization start: imports wait, so every document committed later gets a larger key. */
  async lockForWholeMove(manager: Queryable, organizationKey: string): Promise<void> {
    await manager.query(`SELECT 1 FROM ${TABLES.organizations} WHERE "key" = $1 FOR UPDATE`, [organizationKey]);
  }
}
