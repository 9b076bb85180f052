import { AppError, AppErrorKind } from '@acme/platform-errors';

/** Internal codes of the document-migration domain; the app's presenter maps each to its wire status. */
export enum MigrationErrorCode {
  UNAUTHENTICATED = 'MIGRATION_UNAUTHENTICATED',
  WORKSPACE_NOT_FOUND = 'WORKSPACE_NOT_FOUND',
  ORGANIZATION_NOT_FOUND = 'ORGANIZATION_NOT_FOUND',
  ORGANIZATION_EXISTS = 'ORGANIZATION_EXISTS',
  DOCUMENTS_NOT_FOUND = 'DOCUMENTS_NOT_FOUND',
  DOCUMENT_EXISTS = 'DOCUMENT_EXISTS',
  SAME_ORGANIZATION = 'SAME_ORGANIZATION',
  DOCUMENTS_HELD = 'DOCUMENTS_HELD',
  MIGRATION_NOT_FOUND = 'MIGRATION_NOT_FOUND',
  MIGRATION_FINISHED = 'MIGRATION_FINISHED',
}

const KIND: Readonly<Record<MigrationErrorCode, AppErrorKind>> = {
  [MigrationErrorCode.UNAUTHENTICATED]: 'unauthorized',
  [MigrationErrorCode.WORKSPACE_NOT_FOUND]: 'not_found',
  [MigrationErrorCode.ORGANIZATION_NOT_FOUND]: 'not_found',
  [MigrationErrorCode.ORGANIZATION_EXISTS]: 'conflict',
  [MigrationErrorCode.DOCUMENTS_NOT_FOUND]: 'not_found',
  [MigrationErrorCode.DOCUMENT_EXISTS]: 'conflict',
  [MigrationErrorCode.SAME_ORGANIZATION]: 'validation',
  [MigrationErrorCode.DOCUMENTS_HELD]: 'conflict',
  [MigrationErrorCode.MIGRATION_NOT_FOUND]: 'not_found',
  [MigrationErrorCode.MIGRATION_FINISHED]: 'conflict',
};

/** A failure of the document-migration domain; its kind follows from the code. */
export class MigrationError extends AppError {
  constructor(
    override readonly code: MigrationErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(code, KIND[code], message, details === undefined ? {} : { details });
    this.name = 'MigrationError';
  }
}

/** The domain's failures with their texts, worded once. */
export const MigrationErrors = {
  /** Where the credentials travel is the app's business: its presenter words this for its wire. */
  unauthenticated: () =>
    new MigrationError(MigrationErrorCode.UNAUTHENTICATED, 'Valid workspace credentials are required.'),
  workspaceNotFound: () => new MigrationError(MigrationErrorCode.WORKSPACE_NOT_FOUND, 'Workspace not found.'),
  organizationNotFound: (organizationId: string) =>
    new MigrationError(MigrationErrorCode.ORGANIZATION_NOT_FOUND, `Organization '${organizationId}' not found.`),
  organizationExists: (organizationId: string) =>
    new MigrationError(MigrationErrorCode.ORGANIZATION_EXISTS, `Organization '${organizationId}' already exists.`),
  documentsNotFound: (missing: string[]) => {
    const listed = `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}`;
    return new MigrationError(
      MigrationErrorCode.DOCUMENTS_NOT_FOUND,
      `${missing.length} document(s) not found in the source organization: ${listed}.`,
      { missing: missing.slice(0, 100) },
    );
  },
  documentExists: (duplicate: string) =>
    new MigrationError(MigrationErrorCode.DOCUMENT_EXISTS, `A document or record already exists: ${duplicate}.`),
  sameOrganization: () =>
    new MigrationError(
      MigrationErrorCode.SAME_ORGANIZATION,
      'organizationId and targetOrganizationId must be different.',
    ),
  documentsHeld: () =>
    new MigrationError(
      MigrationErrorCode.DOCUMENTS_HELD,
      'An unfinished migration already holds some of these documents or organizations.',
    ),
  migrationNotFound: () => new MigrationError(MigrationErrorCode.MIGRATION_NOT_FOUND, 'Migration not found.'),
  migrationFinished: (status: string) =>
    new MigrationError(
      MigrationErrorCode.MIGRATION_FINISHED,
      `Migration is already ${status} and cannot be cancelled.`,
    ),
};
