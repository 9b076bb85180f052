import { AppError, AppErrorKind } from '@acme/platform-errors';

/** Internal codes of the document-migration domain; the app's presenter maps each to its wire status. */
export enum MigrationErrorCode {
  Unauthenticated = 'MIGRATION_UNAUTHENTICATED',
  WorkspaceNotFound = 'WORKSPACE_NOT_FOUND',
  OrganizationNotFound = 'ORGANIZATION_NOT_FOUND',
  OrganizationExists = 'ORGANIZATION_EXISTS',
  DocumentsNotFound = 'DOCUMENTS_NOT_FOUND',
  DocumentExists = 'DOCUMENT_EXISTS',
  SameOrganization = 'SAME_ORGANIZATION',
  DocumentsHeld = 'DOCUMENTS_HELD',
  MigrationNotFound = 'MIGRATION_NOT_FOUND',
  MigrationFinished = 'MIGRATION_FINISHED',
}

const KIND: Readonly<Record<MigrationErrorCode, AppErrorKind>> = {
  [MigrationErrorCode.Unauthenticated]: 'unauthorized',
  [MigrationErrorCode.WorkspaceNotFound]: 'not_found',
  [MigrationErrorCode.OrganizationNotFound]: 'not_found',
  [MigrationErrorCode.OrganizationExists]: 'conflict',
  [MigrationErrorCode.DocumentsNotFound]: 'not_found',
  [MigrationErrorCode.DocumentExists]: 'conflict',
  [MigrationErrorCode.SameOrganization]: 'validation',
  [MigrationErrorCode.DocumentsHeld]: 'conflict',
  [MigrationErrorCode.MigrationNotFound]: 'not_found',
  [MigrationErrorCode.MigrationFinished]: 'conflict',
};

/** Every failure of the domain; the static constructors hold the messages so they read the same everywhere. */
export class MigrationError extends AppError {
  constructor(
    override readonly code: MigrationErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(code, KIND[code], message, details === undefined ? {} : { details });
    this.name = 'MigrationError';
  }

  /** Where the credentials travel is the app's business: its presenter words this for its wire. */
  static unauthenticated(): MigrationError {
    return new MigrationError(MigrationErrorCode.Unauthenticated, 'Valid workspace credentials are required.');
  }

  static workspaceNotFound(): MigrationError {
    return new MigrationError(MigrationErrorCode.WorkspaceNotFound, 'Workspace not found.');
  }

  static organizationNotFound(organizationId: string): MigrationError {
    return new MigrationError(MigrationErrorCode.OrganizationNotFound, `Organization '${organizationId}' not found.`);
  }

  static organizationExists(organizationId: string): MigrationError {
    return new MigrationError(
      MigrationErrorCode.OrganizationExists,
      `Organization '${organizationId}' already exists.`,
    );
  }

  static documentsNotFound(missing: string[]): MigrationError {
    const listed = `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}`;
    return new MigrationError(
      MigrationErrorCode.DocumentsNotFound,
      `${missing.length} document(s) not found in the source organization: ${listed}.`,
      {
        missing: missing.slice(0, 100),
      },
    );
  }

  static documentExists(duplicate: string): MigrationError {
    return new MigrationError(MigrationErrorCode.DocumentExists, `A document or record already exists: ${duplicate}.`);
  }

  static sameOrganization(): MigrationError {
    return new MigrationError(
      MigrationErrorCode.SameOrganization,
      'organizationId and targetOrganizationId must be different.',
    );
  }

  static documentsHeld(): MigrationError {
    return new MigrationError(
      MigrationErrorCode.DocumentsHeld,
      'An unfinished migration already holds some of these documents or organizations.',
    );
  }

  static migrationNotFound(): MigrationError {
    return new MigrationError(MigrationErrorCode.MigrationNotFound, 'Migration not found.');
  }

  static migrationFinished(status: string): MigrationError {
    return new MigrationError(
      MigrationErrorCode.MigrationFinished,
      `Migration is already ${status} and cannot be cancelled.`,
    );
  }
}
