import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { digestSecret, generateSecret, verifySecret } from '@acme/platform-auth';
import { isUniqueViolation, pgErrorDetail, withTransaction } from '@acme/platform-persistence';
import { MigrationErrors } from './document-migration.errors';
import { DocumentRepository, ImportedDocument, OrganizationStats } from './repositories/document.repository';
import { OrganizationRepository } from './repositories/organization.repository';
import { WorkspaceRepository } from './repositories/workspace.repository';

export interface CreatedWorkspace {
  workspaceId: string;
  apiKey: string;
  authToken: string;
}

/** Tenancy and data: workspaces with their hashed credentials, organizations, bulk import and counts. */
@Injectable()
export class WorkspaceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly workspaces: WorkspaceRepository,
    private readonly organizations: OrganizationRepository,
    private readonly documents: DocumentRepository,
  ) {}

  async createWorkspace(name: string): Promise<CreatedWorkspace> {
    const workspaceId = randomUUID();
    const apiKey = generateSecret('wk_', 18);
    const authToken = generateSecret('wat_', 32);
    await this.workspaces.insert({
      id: workspaceId,
      name,
      apiKeyDigest: digestSecret(apiKey),
      authTokenDigest: digestSecret(authToken),
    });
    return { workspaceId, apiKey, authToken };
  }

  /** The workspace both credentials identify, or UNAUTHENTICATED; the token is compared in constant time. */
  async authenticate(apiKey: string | undefined, authToken: string | undefined): Promise<string> {
    if (!apiKey || !authToken) throw MigrationErrors.unauthenticated();
    const workspace = await this.workspaces.findCredentialsByApiKeyDigest(digestSecret(apiKey));
    if (!workspace || !verifySecret(authToken, workspace.authTokenDigest)) throw MigrationErrors.unauthenticated();
    return workspace.id;
  }

  async createOrganization(workspaceId: string, organizationId: string): Promise<void> {
    await this.requireWorkspace(workspaceId);
    try {
      await this.organizations.insert(workspaceId, organizationId);
    } catch (error) {
      if (isUniqueViolation(error)) throw MigrationErrors.organizationExists(organizationId);
      throw error;
    }
  }

  /** Internal key of a workspace's organization; another workspace's organization is simply not found. */
  async organizationKey(workspaceId: string, organizationId: string): Promise<string> {
    const key = await this.organizations.findKey(workspaceId, organizationId);
    if (key === undefined) throw MigrationErrors.organizationNotFound(organizationId);
    return key;
  }

  /** Imports everything or nothing. */
  async importDocuments(
    workspaceId: string,
    organizationId: string,
    documents: ImportedDocument[],
  ): Promise<OrganizationStats> {
    await this.requireWorkspace(workspaceId);
    const organizationKey = await this.organizationKey(workspaceId, organizationId);
    try {
      return await withTransaction(this.dataSource, async (manager) => {
        await this.organizations.lockForImport(manager, organizationKey);
        return this.documents.insertWithRecords(manager, organizationKey, documents);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw MigrationErrors.documentExists(describeDuplicate(pgErrorDetail(error)));
      throw error;
    }
  }

  async stats(workspaceId: string, organizationId: string): Promise<OrganizationStats> {
    await this.requireWorkspace(workspaceId);
    return this.documents.countInOrganization(await this.organizationKey(workspaceId, organizationId));
  }

  private async requireWorkspace(workspaceId: string): Promise<void> {
    if (!(await this.workspaces.exists(workspaceId))) throw MigrationErrors.workspaceNotFound();
  }
}

/** "Key (organization_key, id)=(3, doc-1) already exists." -> "id doc-1"; internal keys stay inside. */
export function describeDuplicate(detail: string | undefined): string {
  const match = /=\(\d+, (.*)\) already exists/.exec(detail ?? '');
  return match ? `id '${match[1]}'` : 'duplicate id';
}
