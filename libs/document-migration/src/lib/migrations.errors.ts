import { AppError } from '@acme/platform-errors';

export const MigrationErrorCode = {
  unauthenticated: 'MIGRATION_UNAUTHENTICATED',
  workspaceNotFound: 'WORKSPACE_NOT_FOUND',
  organizationNotFound: 'ORGANIZATION_NOT_FOUND',
  organizationExists: 'ORGANIZATION_EXISTS',
  documentsNotFound: 'DOCUMENTS_NOT_FOUND',
  documentExists: 'DOCUMENT_EXISTS',
  sameOrganization: 'SAME_ORGANIZATION',
  documentsHeld: 'DOCUMENTS_HELD',
  migrationNotFound: 'MIGRATION_NOT_FOUND',
  migrationFinished: 'MIGRATION_FINISHED',
} as const;

export const migrationErrors = {
  unauthenticated: () =>
    new AppError(MigrationErrorCode.unauthenticated, 'unauthorized', 'Valid x-service-api-key and x-service-auth-token headers are required.'),
  workspaceNotFound: () => new AppError(MigrationErrorCode.workspaceNotFound, 'not_found', 'Workspace not found.'),
  organizationNotFound: (organizationId: string) =>
    new AppError(MigrationErrorCode.organizationNotFound, 'not_found', `Organization '${organizationId}' not found.`),
  organizationExists: (organizationId: string) =>
    new AppError(MigrationErrorCode.organizationExists, 'conflict', `Organization '${organizationId}' already exists.`),
  documentsNotFound: (missing: string[]) =>
    new AppError(
      MigrationErrorCode.documentsNotFound,
      'not_found',
      `${missing.length} document(s) not found in the source organization: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}.`,
      { details: { missing: missing.slice(0, 100) } },
    ),
  documentExists: (detail: string) => new AppError(MigrationErrorCode.documentExists, 'conflict', `A document or record already exists: ${detail}.`),
  sameOrganization: () =>
    new AppError(MigrationErrorCode.sameOrganization, 'validation', 'organizationId and targetOrganizationId must be different.'),
  documentsHeld: () =>
    new AppError(MigrationErrorCode.documentsHeld, 'conflict', 'An unfinished migration already holds some of these documents or organizations.'),
  migrationNotFound: () => new AppError(MigrationErrorCode.migrationNotFound, 'not_found', 'Migration not found.'),
  migrationFinished: (status: string) =>
    new AppError(MigrationErrorCode.migrationFinished, 'conflict', `Migration is already ${status} and cannot be cancelled.`),
};
